import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { PendingSignIn } from '../../../core/ports/identity-provider.ts';
import { safeNext } from './auth-pages.ts';

/**
 * What a started OpenID sign-in keeps until its callback — state, nonce, PKCE verifier, where to go
 * next — travels in the browser, sealed with AES-256-GCM under a key every instance shares (the
 * store's secret): any instance can finish the sign-in, nobody can read the verifier or forge a state,
 * and the server keeps nothing. Valid 10 minutes, sent back only to /auth/oidc.
 */

export const OIDC_PENDING_COOKIE = 'snip_oidc';
export const OIDC_PENDING_PATH = '/auth/oidc';
export const OIDC_PENDING_SECONDS = 600;

export interface PendingCookie extends PendingSignIn {
  next?: string;
}

const IV = 12;
const TAG = 16;
/** Ties the sealed text to its use, should the same key ever seal something else. */
const LABEL = Buffer.from('snip: oidc pending sign-in');

const text = (value: unknown): value is string => typeof value === 'string' && value !== '';

export function pendingSeal(key: Buffer) {
  return {
    seal(pending: PendingCookie, nowMs: number): string {
      const iv = randomBytes(IV);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(LABEL);
      const { state, nonce, codeVerifier, next } = pending;
      const plain = JSON.stringify({
        state,
        nonce,
        codeVerifier,
        next,
        exp: nowMs + OIDC_PENDING_SECONDS * 1000,
      });
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },

    /** The pending sign-in, if this Snip sealed it and it has not expired; else undefined. */
    open(sealed: string, nowMs: number): PendingCookie | undefined {
      try {
        const raw = Buffer.from(sealed, 'base64url');
        if (raw.length <= IV + TAG) return undefined;
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV)).setAAD(LABEL);
        decipher.setAuthTag(raw.subarray(IV, IV + TAG));
        const plain = Buffer.concat([decipher.update(raw.subarray(IV + TAG)), decipher.final()]);
        const opened = JSON.parse(plain.toString('utf8')) as Record<string, unknown>;
        const { state, nonce, codeVerifier, exp } = opened;
        if (!text(state) || !text(nonce) || !text(codeVerifier)) return undefined;
        if (typeof exp !== 'number' || exp <= nowMs) return undefined;
        return { state, nonce, codeVerifier, next: safeNext(opened.next) };
      } catch {
        return undefined;
      }
    },
  };
}
