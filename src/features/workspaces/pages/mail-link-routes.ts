import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Refusal } from '../../../core/errors.ts';
import { isLinkToken } from '../../../core/link-token.ts';
import type { Mailer } from '../../../core/ports/mailer.ts';
import type { WindowCounter } from '../../../core/ports/shared-state.ts';
import { field } from '../../../web/form-fields.ts';
import { type PageRefusal, refusedOn } from '../../../web/page-refusals.ts';
import { sendPage } from '../../../web/send-page.ts';
import type { FormTokens } from '../../../web/session/csrf.ts';
import { frameOf, refuseForgedForm, signedInForm, signedInPage } from '../../../web/session/handlers.ts';
import type { SessionDeps, SignedIn } from '../../../web/session/session-cookie.ts';
import { type MailLinkStore, type MailLinks, mailLinks } from '../mail-links.ts';
import { PASSWORD_MIN } from '../sign-in.ts';
import {
  confirmEmailPage,
  forgotPasswordPage,
  linkRefusedPage,
  newPasswordPage,
  resetByOperatorPage,
  resetRequestedPage,
} from './mail-link-pages.ts';

/**
 * GET/POST /password/forgot, GET/POST /password/reset/:token, GET /email/verify/:token, and for a
 * signed-in user whose email is unconfirmed GET /email/verify and POST /email/verify/resend.
 */

export interface MailLinkRouteOptions extends SessionDeps {
  store: MailLinkStore;
  counter: WindowCounter;
  baseUrl: URL;
  mailer?: Mailer;
  emailVerification: 'required' | 'off';
  forms: FormTokens;
}

const tokenOf = (request: FastifyRequest) => (request.params as { token?: string }).token;
const ASK_AGAIN = { href: '/password/forgot', label: 'Ask for a new link' };

const refusedLink = (reply: FastifyReply, refused: PageRefusal, retry = ASK_AGAIN) =>
  sendPage(reply, refused.status, linkRefusedPage(refused.error, retry));

/** Asking for a reset link, and choosing the new password with it. */
function resetRoutes(app: FastifyInstance, options: MailLinkRouteOptions, links: MailLinks) {
  const { formToken, hasFormToken } = options.forms;

  app.get('/password/forgot', async (request, reply) => {
    if (!links.mails) return sendPage(reply, 200, resetByOperatorPage());
    return sendPage(reply, 200, forgotPasswordPage({ csrfToken: formToken(request, reply, options.policy) }));
  });

  app.post('/password/forgot', async (request, reply) => {
    if (!links.mails) return sendPage(reply, 200, resetByOperatorPage());
    if (!hasFormToken(request)) return refuseForgedForm(reply);
    const email = field(request.body, 'email');
    try {
      await links.requestReset(email, request.ip);
      return sendPage(reply, 200, resetRequestedPage());
    } catch (error) {
      const { status, error: shown } = refusedOn(reply, error);
      const csrfToken = formToken(request, reply, options.policy);
      return sendPage(reply, status, forgotPasswordPage({ csrfToken, email, error: shown }));
    }
  });

  // The token is only looked at here, not taken: a mail scanner opening the link spends nothing.
  app.get('/password/reset/:token', async (request, reply) => {
    const token = tokenOf(request);
    try {
      await links.checkResetLink(token, request.ip);
    } catch (error) {
      return refusedLink(reply, refusedOn(reply, error));
    }
    if (!isLinkToken(token)) return refusedLink(reply, refusedOn(reply, new Refusal('link-invalid')));
    const csrfToken = formToken(request, reply, options.policy);
    return sendPage(reply, 200, newPasswordPage({ csrfToken, token, minPassword: PASSWORD_MIN }));
  });

  app.post('/password/reset/:token', async (request, reply) => {
    if (!hasFormToken(request)) return refuseForgedForm(reply);
    const token = tokenOf(request);
    try {
      await links.resetPassword(token, field(request.body, 'password'), request.ip);
      return reply.redirect('/login?done=password-reset', 303);
    } catch (error) {
      const refused = refusedOn(reply, error);
      if (refused.error.code === 'link-invalid' || !isLinkToken(token)) return refusedLink(reply, refused);
      const csrfToken = formToken(request, reply, options.policy);
      const form = { csrfToken, token, minPassword: PASSWORD_MIN, error: refused.error };
      return sendPage(reply, refused.status, newPasswordPage(form));
    }
  });
}

/** Following a verification link, and the "Confirm your email" page that waits for it. */
function verifyRoutes(app: FastifyInstance, options: MailLinkRouteOptions, links: MailLinks) {
  // The page that sends people to confirm their email must itself be open to them.
  const unverifiedOk: SessionDeps = { ...options, requireVerifiedEmail: false };
  const confirmed = (user: SignedIn) => options.emailVerification === 'off' || user.user.emailVerified;

  app.get('/email/verify/:token', async (request, reply) => {
    try {
      await links.verify(tokenOf(request), request.ip);
      return reply.redirect('/dashboard', 303);
    } catch (error) {
      return refusedLink(reply, refusedOn(reply, error), { href: '/email/verify', label: 'Get a new link' });
    }
  });

  app.get(
    '/email/verify',
    signedInPage(unverifiedOk, async (request, reply, user) => {
      if (confirmed(user)) return reply.redirect('/dashboard', 303);
      const done = field(request.query, 'done') || undefined;
      return sendPage(reply, 200, confirmEmailPage({ frame: frameOf(user), done }));
    }),
  );

  app.post(
    '/email/verify/resend',
    signedInForm(unverifiedOk, async (_request, reply, user) => {
      if (confirmed(user)) return reply.redirect('/dashboard', 303);
      try {
        await links.resendVerification(user.user);
        return reply.redirect('/email/verify?done=verification-sent', 303);
      } catch (error) {
        const { status, error: shown } = refusedOn(reply, error);
        return sendPage(reply, status, confirmEmailPage({ frame: frameOf(user), error: shown }));
      }
    }),
  );
}

export async function mailLinkRoutes(app: FastifyInstance, options: MailLinkRouteOptions): Promise<void> {
  const links = mailLinks({
    ...options,
    onMailError: (error) => app.log.error({ err: error }, 'a mailed link could not be made or sent'),
  });
  resetRoutes(app, options, links);
  verifyRoutes(app, options, links);
}
