import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Refusal } from '../../../core/errors.ts';
import type { AccountStore } from '../../../core/ports/store.ts';
import { field } from '../../../web/form-fields.ts';
import { refusedOn } from '../../../web/page-refusals.ts';
import { sendPage } from '../../../web/send-page.ts';
import type { FormTokens } from '../../../web/session/csrf.ts';
import { frameOf, refuseForgedForm, signedInForm, signedInPage } from '../../../web/session/handlers.ts';
import {
  cookieOptions,
  type SessionDeps,
  type SignedIn,
  startSession,
} from '../../../web/session/session-cookie.ts';
import { PENDING_SIGN_IN_S, type PendingSignIns } from '../sealed.ts';
import type { TwoFactorService, TwoFactorSetup } from '../two-factor.ts';
import { safeNext } from './auth-pages.ts';
import { recoveryCodesPage, signInCodePage, twoFactorSetupPage } from './two-factor-pages.ts';

/**
 * GET/POST /login/code (the second step of a password sign-in with two-factor on), and GET/POST
 * /account/2fa (turning it on). OpenID sign-ins never come here: their provider vouches for them.
 */

/** The pending sign-in's cookie: only the code form reads it. */
export const PENDING_COOKIE = 'snip_2fa';
const PENDING_PATH = '/login';

export interface TwoFactorRouteOptions extends SessionDeps {
  twoFactor: TwoFactorService;
  pendingSignIns: PendingSignIns;
  forms: FormTokens;
  accounts: Pick<AccountStore, 'findUserById'>;
  /** The QR code of a text as an image address. */
  qrImage: (text: string) => Promise<string>;
}

/** After a right password with two-factor on: the pending sign-in's cookie and the code form, no session. */
export function askForCode(
  options: Pick<TwoFactorRouteOptions, 'pendingSignIns' | 'policy'>,
  reply: FastifyReply,
  form: { userId: number; csrfToken: string; next?: string },
): FastifyReply {
  const token = options.pendingSignIns.issue(form.userId);
  reply.setCookie(PENDING_COOKIE, token, cookieOptions(options.policy, PENDING_PATH, PENDING_SIGN_IN_S));
  return sendPage(reply, 200, signInCodePage(form));
}

export async function twoFactorRoutes(app: FastifyInstance, options: TwoFactorRouteOptions): Promise<void> {
  const { formToken, hasFormToken } = options.forms;
  const { twoFactor } = options;
  const nextOf = (request: FastifyRequest) => safeNext(field(request.body, 'next'));

  /** The user a live pending sign-in names, still able to sign in with two-factor on. */
  async function pendingUser(request: FastifyRequest) {
    const userId = options.pendingSignIns.userOf(request.cookies[PENDING_COOKIE]);
    const user = userId === undefined ? undefined : await options.accounts.findUserById(userId);
    return user && !user.suspendedAt && user.twoFactor ? user : undefined;
  }

  app.get('/login/code', async (request, reply) => {
    if (!(await pendingUser(request))) return reply.redirect('/login', 303);
    return sendPage(reply, 200, signInCodePage({ csrfToken: formToken(request, reply, options.policy) }));
  });

  app.post('/login/code', async (request, reply) => {
    if (!hasFormToken(request)) return refuseForgedForm(reply);
    const next = nextOf(request);
    const csrfToken = formToken(request, reply, options.policy);
    const user = await pendingUser(request);
    try {
      if (!user) throw new Refusal('sign-in-expired');
      await twoFactor.check(user, field(request.body, 'code'));
    } catch (error) {
      const { status, error: shown } = refusedOn(reply, error);
      return sendPage(reply, status, signInCodePage({ csrfToken, next, error: shown }));
    }
    reply.clearCookie(PENDING_COOKIE, cookieOptions(options.policy, PENDING_PATH));
    await startSession(options, request, reply, user.id);
    return reply.redirect(next ?? '/dashboard', 303);
  });

  const setupPage = async (user: SignedIn, setup: TwoFactorSetup) => ({
    frame: frameOf(user),
    setup,
    qr: await options.qrImage(setup.uri),
  });

  app.get(
    '/account/2fa',
    signedInPage(options, async (_request, reply, user) => {
      if (user.user.twoFactor) return reply.redirect('/account#two-factor', 303);
      return sendPage(reply, 200, twoFactorSetupPage(await setupPage(user, twoFactor.begin(user.user))));
    }),
  );

  app.post(
    '/account/2fa',
    signedInForm(options, async (request, reply, user) => {
      const sealed = field(request.body, 'setup');
      try {
        const codes = await twoFactor.enable(
          user.user,
          sealed,
          field(request.body, 'code').replace(/\s/g, ''),
        );
        return sendPage(reply, 200, recoveryCodesPage(frameOf(user), codes));
      } catch (error) {
        const { status, error: shown } = refusedOn(reply, error);
        const setup = twoFactor.setupOf(user.user, sealed);
        if (!setup) return reply.redirect('/account/2fa', 303);
        return sendPage(
          reply,
          status,
          twoFactorSetupPage({ ...(await setupPage(user, setup)), error: shown }),
        );
      }
    }),
  );
}
