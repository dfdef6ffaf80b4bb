import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { field } from '../form-fields.ts';
import { type CookiePolicy, cookieOptions } from './session-cookie.ts';
import { randomToken } from './sessions.ts';

/**
 * CSRF tokens on every form. Signed-in forms carry the session's token (kept server-side); the sign-up
 * and sign-in forms, which have no session yet, carry a signed pre-session token (below). SameSite=Lax
 * cookies are the first line; the tokens the second.
 */

export const CSRF_FIELD = '_csrf';
export const FORM_TOKEN_COOKIE = 'snip_csrf';

export function sameToken(expected: string, presented: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length > 0 && a.length === b.length && timingSafeEqual(a, b);
}

/** True when the form's token is the session's. */
export function hasSessionToken(request: FastifyRequest, sessionToken: string): boolean {
  return sameToken(sessionToken, field(request.body, CSRF_FIELD));
}

/** A signed-out form's pre-session lives this long; a page left open longer is simply reloaded. */
const PRE_SESSION_SECONDS = 12 * 3600;
const PRE_SESSION = /^([A-Za-z0-9_-]{43})\.(\d{1,12})$/;

/**
 * Tokens of the signed-out forms (sign-up, sign-in), which have no session yet. The cookie holds a
 * pre-session (a random id and when it was issued); the form carries that pre-session signed with a
 * secret every instance shares (HMAC-SHA256). A cookie and a field merely equal to each other — all a
 * page that can plant cookies could forge — no longer pass: the field must be Snip's signature of
 * the cookie, and the pre-session must be recent.
 */
export function signedFormTokens(secret: Buffer, now: () => number) {
  const sign = (preSession: string) =>
    createHmac('sha256', secret).update(`snip-form:${preSession}`).digest('base64url');

  function liveCookie(request: FastifyRequest): string | undefined {
    const cookie = request.cookies[FORM_TOKEN_COOKIE];
    const issued = cookie === undefined ? undefined : PRE_SESSION.exec(cookie)?.[2];
    if (issued === undefined) return undefined;
    const age = now() / 1000 - Number(issued);
    return age >= -60 && age < PRE_SESSION_SECONDS ? cookie : undefined;
  }

  return {
    /** The form's token for this browser's pre-session, starting a new pre-session when it has none. */
    formToken(request: FastifyRequest, reply: FastifyReply, policy: CookiePolicy): string {
      let preSession = liveCookie(request);
      if (preSession === undefined) {
        preSession = `${randomToken()}.${Math.floor(now() / 1000)}`;
        reply.setCookie(FORM_TOKEN_COOKIE, preSession, cookieOptions(policy, '/', PRE_SESSION_SECONDS));
      }
      return sign(preSession);
    },

    /** True when a signed-out form sent back the signature of the pre-session its cookie holds. */
    hasFormToken(request: FastifyRequest): boolean {
      const preSession = liveCookie(request);
      return preSession !== undefined && sameToken(sign(preSession), field(request.body, CSRF_FIELD));
    },
  };
}

export type FormTokens = ReturnType<typeof signedFormTokens>;
