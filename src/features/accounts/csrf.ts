import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { field } from './form-fields.ts';
import { type CookiePolicy, cookieOptions } from './session-cookie.ts';
import { randomToken } from './sessions.ts';

/**
 * CSRF tokens on every form. Signed-in forms carry the session's token (kept server-side); the sign-up
 * and sign-in forms, which have no session yet, use a double-submit token: the same random value in a
 * cookie and in the form. SameSite=Lax cookies are the first line; the tokens the second.
 */

export const CSRF_FIELD = '_csrf';
export const FORM_TOKEN_COOKIE = 'snip_csrf';
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function sameToken(expected: string, presented: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length > 0 && a.length === b.length && timingSafeEqual(a, b);
}

/** True when the form's token is the session's. */
export function hasSessionToken(request: FastifyRequest, sessionToken: string): boolean {
  return sameToken(sessionToken, field(request.body, CSRF_FIELD));
}

/** The double-submit token for a signed-out form: the cookie's if it has a well-formed one, else a new one. */
export function formToken(request: FastifyRequest, reply: FastifyReply, policy: CookiePolicy): string {
  const current = request.cookies[FORM_TOKEN_COOKIE];
  if (current !== undefined && TOKEN.test(current)) return current;
  const token = randomToken();
  reply.setCookie(FORM_TOKEN_COOKIE, token, cookieOptions(policy, '/'));
  return token;
}

/** True when a signed-out form sent back the token its cookie holds. */
export function hasFormToken(request: FastifyRequest): boolean {
  const cookie = request.cookies[FORM_TOKEN_COOKIE];
  return cookie !== undefined && TOKEN.test(cookie) && sameToken(cookie, field(request.body, CSRF_FIELD));
}
