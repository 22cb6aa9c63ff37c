/**
 * A URL as logs and errors may show it: without userinfo, without query parameters whose name says they hold a
 * credential, without path segments that look like an embedded key (Infura's `/v3/<project id>`, QuickNode's
 * `/<token>/`), without fragment and trailing slashes. A string that is not a URL is never echoed.
 */

/** Query parameter names that hold credentials: `key`, `apikey`, `api_key`, `token`, `access_token`, `secret`, ... */
const SECRET_PARAM_PATTERN = /key|token|secret|auth|pass|signature|credential|^sig$/i;
/** A path segment of at least this many token characters, with letters and digits both, is taken for a key. */
const SECRET_PATH_SEGMENT_CHARS_MIN = 20;
const TOKEN_SEGMENT_PATTERN = /^[A-Za-z0-9_-]+$/;
/** What replaces a path segment taken for a key. */
export const REDACTED_PATH_SEGMENT = 'redacted';

export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(not a URL)';
  }
  parsed.username = '';
  parsed.password = '';
  parsed.hash = '';
  for (const name of [...parsed.searchParams.keys()]) {
    if (isSecretParamName(name)) parsed.searchParams.delete(name);
  }
  parsed.pathname = parsed.pathname
    .split('/')
    .map((segment) => (looksLikeKey(segment) ? REDACTED_PATH_SEGMENT : segment))
    .join('/')
    .replace(/\/+$/, '');
  return parsed.toString().replace(/\/(?=\?|$)/, '');
}

/** Whether a query parameter's name says it holds a credential. */
export function isSecretParamName(name: string): boolean {
  return SECRET_PARAM_PATTERN.test(name);
}

function looksLikeKey(segment: string): boolean {
  return (
    segment.length >= SECRET_PATH_SEGMENT_CHARS_MIN &&
    TOKEN_SEGMENT_PATTERN.test(segment) &&
    /[A-Za-z]/.test(segment) &&
    /\d/.test(segment)
  );
}
