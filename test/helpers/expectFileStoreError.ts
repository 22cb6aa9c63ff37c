import { expect } from 'vitest';
import { FileStoreError, type FileStoreErrorCode } from '../../adapters/fileStore/fileStoreError.js';

/** Expects `promise` to reject with a FileStoreError of `code`, and answers the error for further checks. */
export async function expectFileStoreError(
  promise: Promise<unknown>,
  code: FileStoreErrorCode,
): Promise<FileStoreError> {
  const error: unknown = await promise.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(FileStoreError);
  expect((error as FileStoreError).code).toBe(code);
  return error as FileStoreError;
}
