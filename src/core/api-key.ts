import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** API keys (docs/api.md §5): 256 random bits, shown once, stored as SHA-256 plus a short visible prefix. */

const KEY_MARK = 'snip_';
export const KEY_PREFIX_LENGTH = KEY_MARK.length + 6;

export interface IssuedKey {
  key: string;
  prefix: string;
  hash: Buffer;
}

export function issueApiKey(): IssuedKey {
  const key = KEY_MARK + randomBytes(32).toString('base64url');
  return { key, prefix: key.slice(0, KEY_PREFIX_LENGTH), hash: hashApiKey(key) };
}

export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

// A key is the mark and 43 base64url characters; any run of 16 or more after the mark is treated as
// one, so a key cut short (or followed by more text) is still caught.
const KEY_SHAPED = /snip_[A-Za-z0-9_-]{16,}/g;

/** The text with anything shaped like a Snip API key replaced by "[redacted]". */
export function redactKeys(text: string): string {
  return text.replace(KEY_SHAPED, '[redacted]');
}
