/**
 * A minimal JSON-RPC call for end-to-end tests (the typed client is tested in test/rpc). With `timeoutMs`, a server
 * that does not answer in time fails the call with a message saying so (without, fetch waits up to its own 300 s).
 */
export async function rpc<T = unknown>(
  url: string,
  method: string,
  params: unknown[] = [],
  timeoutMs?: number,
): Promise<T> {
  let body: { result?: T; error?: { message: string } };
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      ...(timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(timeoutMs) }),
    });
    body = (await response.json()) as typeof body;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError')
      throw new Error(`${method} to ${url} got no answer within ${timeoutMs} ms`);
    throw error;
  }
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/** Polls `probe` every 200 ms until it returns true or `timeoutMs` passes. */
export async function waitFor(
  what: string,
  probe: () => Promise<boolean>,
  timeoutMs: number,
  /** What the probe last saw, for the timeout's message (so a failure in CI says where things stood). */
  lastSeen?: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    const done = await probe().catch((error: unknown) => {
      lastError = error instanceof Error ? error.message : String(error);
      return false;
    });
    if (done) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const seen = lastSeen === undefined ? '' : `; last seen: ${lastSeen()}`;
  const failed = lastError === '' ? '' : `; last probe error: ${lastError}`;
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${seen}${failed}`);
}
