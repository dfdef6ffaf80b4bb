import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Refusal } from '../../../core/errors.ts';
import type { Mailer } from '../../../core/ports/mailer.ts';
import type { SecretStore } from '../../../core/ports/store.ts';
import { field } from '../../../web/form-fields.ts';
import { refusedOn } from '../../../web/page-refusals.ts';
import { sendPage } from '../../../web/send-page.ts';
import type { FormTokens } from '../../../web/session/csrf.ts';
import {
  cookieOptions,
  type SessionDeps,
  signedIn,
  startSession,
} from '../../../web/session/session-cookie.ts';
import type { OidcSignIn } from '../oidc-sign-in.ts';
import { invitationTokenOf, type SignupMode } from '../signup-rules.ts';
import { safeNext, signInPage } from './auth-pages.ts';
import {
  OIDC_PENDING_COOKIE,
  OIDC_PENDING_PATH,
  OIDC_PENDING_SECONDS,
  type PendingCookie,
  pendingSeal,
} from './oidc-pending.ts';

/**
 * GET /auth/oidc starts a sign-in with the OpenID provider; GET /auth/oidc/callback finishes it
 * (SPEC §11). Every failure — a callback this browser did not start, a replayed code, a refusal by
 * the provider or by the matching rule — is the sign-in page with `oidc-failed`, and no session.
 * Neither route exists without OIDC configured.
 */

export interface OidcRouteOptions extends SessionDeps {
  /** Absent without OIDC_ISSUER: no route is registered. */
  oidcSignIn?: OidcSignIn;
  oidc?: { name: string };
  store: Pick<SecretStore, 'secret'>;
  baseUrl: URL;
  forms: FormTokens;
  signupMode: SignupMode;
  mailer?: Mailer;
}

const pendingCookieOptions = (options: OidcRouteOptions, maxAge?: number) =>
  cookieOptions(options.policy, OIDC_PENDING_PATH, maxAge);

export async function oidcRoutes(app: FastifyInstance, options: OidcRouteOptions): Promise<void> {
  const service = options.oidcSignIn;
  if (!service) return;
  // Every instance seals with the same key: the first to start stores it.
  const pendings = pendingSeal(await options.store.secret('oidc-pending', randomBytes(32)));

  function refusedPage(request: FastifyRequest, reply: FastifyReply, error: unknown, next?: string) {
    const { status, error: shown, retryAfterSeconds } = refusedOn(reply, error);
    const csrfToken = options.forms.formToken(request, reply, options.policy);
    const body = signInPage(
      { csrfToken, error: shown, next },
      {
        signupMode: options.signupMode,
        oidcName: options.oidc?.name,
        resetByMail: options.mailer !== undefined,
      },
    );
    // Only a provider out of reach is worth waiting for: that is a 503, not the browser's fault.
    return sendPage(reply, retryAfterSeconds === undefined ? status : 503, body);
  }

  /** The pending sign-in this browser carries, taken once: the cookie is cleared whatever it holds. */
  function takePending(request: FastifyRequest, reply: FastifyReply): PendingCookie | undefined {
    const sealed = request.cookies[OIDC_PENDING_COOKIE];
    if (sealed === undefined) return undefined;
    reply.clearCookie(OIDC_PENDING_COOKIE, pendingCookieOptions(options));
    return pendings.open(sealed, options.now());
  }

  app.get('/auth/oidc', async (request, reply) => {
    const next = safeNext(field(request.query, 'next'));
    if (await signedIn(options, request)) return reply.redirect(next ?? '/dashboard', 303);
    try {
      const { url, pending } = await service.start();
      const sealed = pendings.seal({ ...pending, next }, options.now());
      reply.setCookie(OIDC_PENDING_COOKIE, sealed, pendingCookieOptions(options, OIDC_PENDING_SECONDS));
      return reply.redirect(url, 303);
    } catch (error) {
      return refusedPage(request, reply, error, next);
    }
  });

  app.get('/auth/oidc/callback', async (request, reply) => {
    const pending = takePending(request, reply);
    try {
      if (!pending) {
        throw new Refusal('oidc-failed', 'This sign-in has expired or was not started here. Start again.');
      }
      const callbackUrl = new URL(request.url, options.baseUrl);
      const user = await service.finish(callbackUrl, pending, invitationTokenOf(pending.next));
      // A fresh session; whatever session the browser had before is ended (no fixation).
      await startSession(options, request, reply, user.id);
      return reply.redirect(pending.next ?? '/dashboard', 303);
    } catch (error) {
      return refusedPage(request, reply, error, pending?.next);
    }
  });
}
