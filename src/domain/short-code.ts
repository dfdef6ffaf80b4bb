import { randomBytes } from 'node:crypto';

export const SHORT_CODE_LENGTH = 7;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// Largest multiple of 62 that fits in a byte: bytes at or above it are dropped, so no modulo bias.
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);

export const SHORT_CODE_PATTERN = /^[0-9A-Za-z]{7}$/;

export function isShortCode(value: string): boolean {
  return SHORT_CODE_PATTERN.test(value);
}

/** A fresh 7-character code from the cryptographic source (SPEC.md 2.4). */
export function generateShortCode(random: (size: number) => Uint8Array = randomBytes): string {
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
