import { createHash, randomBytes } from 'node:crypto';

/**
 * The tokens of single-use links (invitations, password reset, email verification): 256 random
 * bits in the link, only their SHA-256 in the store, so a copy of the database opens nothing.
 */

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function newLinkToken(): { token: string; hash: Buffer } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashLinkToken(token) };
}

export function hashLinkToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Whether the text has the shape of a token at all (anything else is refused before the store is asked). */
export function isLinkToken(text: unknown): text is string {
  return typeof text === 'string' && TOKEN.test(text);
}
