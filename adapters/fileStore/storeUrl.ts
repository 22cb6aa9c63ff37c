import { FileStoreError } from './fileStoreError.js';

/** Query parameters that carry a secret: presigned URLs' signatures and credentials, SAS tokens, API keys. */
const SECRET_PARAMETER = /sig|signature|token|secret|password|credential|key|auth/i;

/** The URL of a store, or FILE_STORE_BAD_URL naming it without any credential it may hold. */
export function parseStoreUrl(text: string): URL {
  try {
    return new URL(text);
  } catch (error) {
    const store = redactUnparsedUrl(text);
    throw new FileStoreError('FILE_STORE_BAD_URL', `File store ${store}: not a URL`, { store }, { cause: error });
  }
}

/**
 * The name a store goes by in logs and errors: its URL without userinfo, fragment or secret query parameters, and
 * with the userinfo of any URL-valued parameter (`?endpoint=`) removed too. Parameters are shown unencoded: the name
 * is for reading, never parsed again.
 */
export function redactedUrlName(url: URL): string {
  const host = url.host === '' && url.protocol !== 'file:' ? '' : `//${url.host}`;
  const parameters = [...url.searchParams]
    .filter(([key]) => !SECRET_PARAMETER.test(key))
    .map(([key, value]) => `${key}=${withoutUserinfo(value)}`);
  const query = parameters.length === 0 ? '' : `?${parameters.join('&')}`;
  return `${url.protocol}${host}${url.pathname}${query}`;
}

function withoutUserinfo(value: string): string {
  if (!URL.canParse(value)) return value;
  const url = new URL(value);
  return url.username === '' && url.password === '' ? value : redactedUrlName(url);
}

/** What can be shown of a text that does not parse as a URL: no query, nothing up to an `@` (maybe userinfo). */
function redactUnparsedUrl(text: string): string {
  return JSON.stringify(text.replace(/[?#].*$/s, '').replace(/^.*@/s, '…@'));
}
