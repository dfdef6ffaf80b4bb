import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type CookiePolicy, cookieOptions } from '../../web/session/session-cookie.ts';

/**
 * The one-time display of a new API key after the redirect (ADR 010). The key travels in a short-lived
 * cookie sealed with AES-256-GCM under a key derived from the session id, which the server never
 * stores: only the browser holding that session can have it opened, by any instance, and the first
 * GET of a workspace's Keys page clears it. Nothing of the key is kept server-side.
 */

export const FRESH_KEY_COOKIE = 'snip_fresh_key';
/** Sent back only to a workspace's pages, where the Keys page shows it. */
const PATH = '/w/';
const TTL_SECONDS = 600;

function sealingKey(sessionId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', sessionId, '', 'snip: fresh API key', 32));
}

export function sealFreshKey(sessionId: string, apiKey: string, expiresAtMs: number): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(sessionId), iv);
  const body = Buffer.concat([
    cipher.update(JSON.stringify({ key: apiKey, exp: expiresAtMs })),
    cipher.final(),
  ]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The key, if the sealed text was made for this session and has not expired. */
export function openFreshKey(sessionId: string, sealed: string, nowMs: number): string | undefined {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    if (raw.length < 29) return undefined;
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(sessionId), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    const { key, exp } = JSON.parse(text) as { key?: unknown; exp?: unknown };
    return typeof key === 'string' && typeof exp === 'number' && exp > nowMs ? key : undefined;
  } catch {
    return undefined;
  }
}

export function setFreshKey(
  reply: FastifyReply,
  policy: CookiePolicy,
  sessionId: string,
  apiKey: string,
  nowMs: number,
): void {
  const sealed = sealFreshKey(sessionId, apiKey, nowMs + TTL_SECONDS * 1000);
  reply.setCookie(FRESH_KEY_COOKIE, sealed, cookieOptions(policy, PATH, TTL_SECONDS));
}

/** Reads the one-time key, if any, and clears it so it is never shown again. */
export function takeFreshKey(
  request: FastifyRequest,
  reply: FastifyReply,
  policy: CookiePolicy,
  sessionId: string,
  nowMs: number,
): string | undefined {
  const sealed = request.cookies[FRESH_KEY_COOKIE];
  if (sealed === undefined) return undefined;
  reply.clearCookie(FRESH_KEY_COOKIE, cookieOptions(policy, PATH));
  return openFreshKey(sessionId, sealed, nowMs);
}
