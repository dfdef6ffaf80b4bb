import { randomBytes } from 'node:crypto';

export const SHORT_CODE_LENGTH = 7;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// Largest multiple of 62 that fits in a byte: bytes at or above it are dropped, so no modulo bias.
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);

export const SHORT_CODE_PATTERN = /^[0-9A-Za-z]{7}$/;

/** Every code a link can have: a drawn 7-character code or a custom slug (docs/api.md §8.1). */
export const LINK_CODE_PATTERN = /^[A-Za-z0-9_-]{3,64}$/;
export const SLUG_MIN_LENGTH = 3;
export const SLUG_MAX_LENGTH = 64;

/**
 * First path segments that belong to Snip, in lower case: the routes it has (a test holds this list
 * to the registered routes) and some it keeps for later. Its own routes always win over a code, so
 * no code equals one in any case: it could never be reached, or would shadow a page in another case.
 */
export const RESERVED_PATHS: ReadonlySet<string> = new Set([
  '.well-known',
  'about',
  'account',
  'admin',
  'api',
  'assets',
  'auth',
  'create',
  'dashboard',
  'demo',
  'docs',
  'email',
  'favicon.ico',
  'healthz',
  'help',
  'invitations',
  'login',
  'logout',
  'metrics',
  'openapi.json',
  'password',
  'pricing',
  'qrcode',
  'readyz',
  'report',
  'rest',
  'robots.txt',
  'settings',
  'signup',
  'snip.js',
  'static',
  'stats',
  'tester',
  'w',
  'webhooks',
  'yourls-api.php',
]);

export function isReservedPath(value: string): boolean {
  return RESERVED_PATHS.has(value.toLowerCase());
}

/** A code some link could have: the shape of a code or slug, and no path of Snip's own. */
export function isLinkCode(value: string): boolean {
  return LINK_CODE_PATTERN.test(value) && !isReservedPath(value);
}

const POOL_BYTES = 4096;
let pool = new Uint8Array(0);
let pooledAt = 0;

/**
 * Bytes of the cryptographic source drawn 4 KB at a time, each handed out once: one call per ~290
 * codes instead of one per code (each call cost ~15 µs under create load).
 */
export function pooledRandomBytes(size: number): Uint8Array {
  if (size > POOL_BYTES) return randomBytes(size);
  if (pooledAt + size > pool.length) {
    pool = randomBytes(POOL_BYTES);
    pooledAt = 0;
  }
  const bytes = pool.subarray(pooledAt, pooledAt + size);
  pooledAt += size;
  return bytes;
}

/** A fresh 7-character code from the cryptographic source (docs/api.md §2.4). */
export function generateShortCode(random: (size: number) => Uint8Array = pooledRandomBytes): string {
  for (;;) {
    const code = drawCode(random);
    if (!isReservedPath(code)) return code;
  }
}

function drawCode(random: (size: number) => Uint8Array): string {
  let code = '';
  while (code.length < SHORT_CODE_LENGTH) {
    for (const byte of random(SHORT_CODE_LENGTH * 2)) {
      if (byte >= UNBIASED_LIMIT) continue;
      code += ALPHABET[byte % ALPHABET.length];
      if (code.length === SHORT_CODE_LENGTH) break;
    }
  }
  return code;
}
