/** CORS for the public listener: off (no CORS headers at all) unless an allow-list of origins is given. */
import type { RequestHandler } from 'express';

const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** `allowedOrigins`: exact origins (`https://app.example`), or `*` for any origin. */
export function createCorsMiddleware(allowedOrigins: readonly string[]): RequestHandler {
  const allowed = new Set(allowedOrigins);
  const anyOrigin = allowed.has('*');
  return (req, res, next) => {
    const origin = req.headers.origin;
    const permitted = origin !== undefined && (anyOrigin || allowed.has(origin));
    if (allowed.size > 0) res.vary('Origin');
    if (permitted) res.set('Access-Control-Allow-Origin', anyOrigin ? '*' : origin);
    if (req.method !== 'OPTIONS') return next();
    if (permitted) {
      res.set({
        'Access-Control-Allow-Methods': 'GET, POST',
        'Access-Control-Allow-Headers': 'Content-Type, Authorization, X-Api-Key',
        'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_SECONDS),
      });
    }
    res.status(204).end();
  };
}
