import { randomBytes } from 'node:crypto';

export const SHORT_CODE_LENGTH = 7;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// Largest multiple of 62 that fits in a byte: bytes at or above it are dropped, so no modulo bias.
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);

export const SHORT_CODE_PATTERN = /^[0-9A-Za-z]{7}$/;

/**
 * First path segments that belong to Snip. Its own routes always win over a code, so a code equal to
 * one (only the 7-letter ones could be drawn) is never handed out: it could never be reached.
 */
export const RESERVED_PATHS: ReadonlySet<string> = new Set([
  'account',
  'api',
  'assets',
  'create',
  'dashboard',
  'demo',
  'docs',
  'favicon.ico',
  'healthz',
  'login',
  'logout',
  'metrics',
  'openapi.json',
  'qrcode',
  'readyz',
  'robots.txt',
  'signup',
  'static',
  'tester',
]);

export function isShortCode(value: string): boolean {
  return SHORT_CODE_PATTERN.test(value) && !RESERVED_PATHS.has(value);
}

/** A fresh 7-character code from the cryptographic source (docs/api.md §2.4). */
export function generateShortCode(random: (size: number) => Uint8Array = randomBytes): string {
  for (;;) {
    const code = drawCode(random);
    if (!RESERVED_PATHS.has(code)) return code;
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
