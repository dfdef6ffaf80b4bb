import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../../core/entities.ts';
import type { AccountStore } from '../../core/ports/store.ts';
import { familiesOf } from '../../http/visitor-device.ts';
import type { ActiveSession, SessionService, StartedSession } from './sessions.ts';

/** The session cookie and who it signs in. */

export const SESSION_COOKIE = 'snip_session';

export interface CookiePolicy {
  /** Secure when BASE_URL is https. */
  secure: boolean;
}

/** Every cookie Snip sets: HttpOnly, SameSite=Lax, Secure behind https. */
export function cookieOptions(
  policy: CookiePolicy,
  path: string,
  maxAgeSeconds?: number,
): CookieSerializeOptions {
  return {
    path,
    httpOnly: true,
    sameSite: 'lax',
    secure: policy.secure,
    ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
  };
}

export interface SignedIn {
  user: User;
  session: ActiveSession;
  /** The cookie value (the session id), needed to seal the one-time key for this session. */
  sessionId: string;
}

export interface SessionDeps {
  sessions: SessionService;
  accounts: Pick<AccountStore, 'findUserById'>;
  policy: CookiePolicy;
  now: () => number;
  /** EMAIL_VERIFICATION=required: until their email is confirmed, a user's signed-in pages send them to confirm it. */
  requireVerifiedEmail?: boolean;
}

/** Where a signed-in user whose email is unconfirmed is sent (when confirming is required). */
export const CONFIRM_EMAIL_PATH = '/email/verify';

export function mustConfirmEmail(deps: SessionDeps, user: SignedIn): boolean {
  return deps.requireVerifiedEmail === true && !user.user.emailVerified;
}

export async function signedIn(deps: SessionDeps, request: FastifyRequest): Promise<SignedIn | undefined> {
  const sessionId = request.cookies[SESSION_COOKIE];
  const session = await deps.sessions.resume(sessionId);
  if (!session || sessionId === undefined) return undefined;
  const user = await deps.accounts.findUserById(session.userId);
  // A suspended user's sessions end with the suspension; one that outlived it opens nothing.
  if (!user || user.suspendedAt) return undefined;
  return { user, session, sessionId };
}

export function setSessionCookie(deps: SessionDeps, reply: FastifyReply, session: StartedSession): void {
  const seconds = Math.max(1, Math.floor((session.expiresAt.getTime() - deps.now()) / 1000));
  reply.setCookie(SESSION_COOKIE, session.id, cookieOptions(deps.policy, '/', seconds));
}

export function clearSessionCookie(deps: SessionDeps, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(deps.policy, '/'));
}

/** A fresh session for the user; any session the browser had before is ended first (no fixation). */
export async function startSession(
  deps: SessionDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number,
): Promise<StartedSession> {
  await deps.sessions.end(request.cookies[SESSION_COOKIE]);
  const session = await deps.sessions.start(userId, agentOf(request.headers['user-agent']));
  setSessionCookie(deps, reply, session);
  return session;
}

/** What a session keeps of the browser it started in: its families alone, e.g. "Firefox on Linux". */
export function agentOf(userAgent: string | undefined): string | undefined {
  if (!userAgent) return undefined;
  const { browser, os } = familiesOf(userAgent);
  return browser === 'Other' && os === 'Other' ? undefined : `${browser} on ${os}`;
}
