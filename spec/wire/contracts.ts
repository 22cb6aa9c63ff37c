/**
 * Wire shapes of contracts (this project's layouts; the spec leaves them opaque):
 *
 * ContractClassPublic = { id, version, artifactHash, privateFunctionsRoot, publicBytecodeCommitment, packedBytecode }
 *   `id` is the class id (an Fr); `packedBytecode` the public bytecode as hex bytes.
 * ContractInstanceWithAddress = { address, version, salt, deployer, currentContractClassId, originalContractClassId,
 *                                 initializationHash, publicKeysHash }
 *   `currentContractClassId` is resolved as of the block the query names (a class update changes it).
 * ProtocolContractAddresses = { classRegistry, instanceRegistry, feeAsset }
 */
import { z } from 'zod';
import { PUBLIC_BYTECODE_BYTES_MAX } from '../constants.js';
import { aztecAddress, fr, hexBytes, safeUint } from './scalars.js';

export const contractClassPublic = z.object({
  id: fr,
  version: safeUint,
  artifactHash: fr,
  privateFunctionsRoot: fr,
  publicBytecodeCommitment: fr,
  packedBytecode: hexBytes.refine((bytecode) => bytecode.length <= 2 + 2 * PUBLIC_BYTECODE_BYTES_MAX, {
    error: `packed bytecode has at most ${PUBLIC_BYTECODE_BYTES_MAX} bytes`,
  }),
});

export const contractInstanceWithAddress = z.object({
  address: aztecAddress,
  version: safeUint,
  salt: fr,
  deployer: aztecAddress,
  currentContractClassId: fr,
  originalContractClassId: fr,
  initializationHash: fr,
  publicKeysHash: fr,
});

export const protocolContractAddresses = z.object({
  classRegistry: aztecAddress,
  instanceRegistry: aztecAddress,
  feeAsset: aztecAddress,
});
