import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { field } from '../../../web/form-fields.ts';
import { messagePage } from '../../../web/message-page.ts';
import { refusedOn } from '../../../web/page-refusals.ts';
import { sendPage } from '../../../web/send-page.ts';
import type { FormTokens } from '../../../web/session/csrf.ts';
import { refuseForgedForm, signedInForm } from '../../../web/session/handlers.ts';
import { clearSessionCookie, type SessionDeps, type SignedIn } from '../../../web/session/session-cookie.ts';
import type { AccountLife } from '../account-life.ts';
import type { TwoFactorService } from '../two-factor.ts';
import type { AccountView } from './account-page.ts';
import { confirmEmailChangePage } from './two-factor-pages.ts';

/**
 * The forms of Account Settings that keep an account trusted (docs/api.md §22): two-factor off,
 * sessions signed out, a change of email and its mailed link, and deleting the account.
 */

/** Account Settings for the signed-in person, with what a form refused or just did. */
export type RenderAccount = (
  reply: FastifyReply,
  user: SignedIn,
  status: number,
  extra?: Partial<AccountView>,
) => Promise<FastifyReply>;

export interface AccountTrustOptions extends SessionDeps {
  twoFactor: TwoFactorService;
  life: AccountLife;
  forms: FormTokens;
  render: RenderAccount;
}

const tokenOf = (request: FastifyRequest) => (request.params as { token?: string }).token;
const ASK_AGAIN = { href: '/account#email', label: 'Account Settings' };

export async function accountTrustRoutes(app: FastifyInstance, options: AccountTrustOptions): Promise<void> {
  const { life, render } = options;
  const { formToken, hasFormToken } = options.forms;

  app.post(
    '/account/2fa/off',
    signedInForm(options, async (request, reply, user) => {
      try {
        await options.twoFactor.disable(user.user, field(request.body, 'code'));
      } catch (error) {
        const { status, error: shown } = refusedOn(reply, error);
        return render(reply, user, status, { twoFactorError: shown });
      }
      return reply.redirect('/account?done=two-factor-off', 303);
    }),
  );

  app.post(
    '/account/sessions/end',
    signedInForm(options, async (request, reply, user) => {
      const ended = await life.endSession(user.user, user.session.idHash, field(request.body, 'session'));
      return reply.redirect(ended ? '/account?done=session-ended#sessions' : '/account#sessions', 303);
    }),
  );

  app.post(
    '/account/sessions/end-others',
    signedInForm(options, async (_request, reply, user) => {
      await life.endOtherSessions(user.user, user.session.idHash);
      return reply.redirect('/account?done=others-ended#sessions', 303);
    }),
  );

  app.post(
    '/account/email',
    signedInForm(options, async (request, reply, user) => {
      const [email, password] = [field(request.body, 'email'), field(request.body, 'password')];
      try {
        await life.requestEmailChange(user.user, email, password, request.ip);
      } catch (error) {
        const { status, error: shown } = refusedOn(reply, error);
        return render(reply, user, status, { emailError: shown });
      }
      return reply.redirect('/account?done=email-mailed', 303);
    }),
  );

  /** A used, unknown or expired email-change link: its refusal on a page of its own. */
  const linkRefused = (reply: FastifyReply, error: unknown) => {
    const { status, error: shown } = refusedOn(reply, error);
    return sendPage(
      reply,
      status,
      messagePage({ title: 'This link does not work', error: shown, next: ASK_AGAIN }),
    );
  };

  // Opening the link only looks at it: a mail scanner that follows links changes nothing.
  app.get('/email/change/:token', async (request, reply) => {
    const token = tokenOf(request) ?? '';
    try {
      await life.checkEmailChange(token, request.ip);
    } catch (error) {
      return linkRefused(reply, error);
    }
    const csrfToken = formToken(request, reply, options.policy);
    return sendPage(reply, 200, confirmEmailChangePage({ csrfToken, token }));
  });

  app.post('/email/change/:token', async (request, reply) => {
    if (!hasFormToken(request)) return refuseForgedForm(reply);
    try {
      await life.confirmEmailChange(tokenOf(request), request.ip);
    } catch (error) {
      return linkRefused(reply, error);
    }
    return reply.redirect('/account?done=email-changed', 303);
  });

  app.post(
    '/account/delete',
    signedInForm(options, async (request, reply, user) => {
      try {
        await life.deleteAccount(user.user, field(request.body, 'confirmation'), request.ip);
      } catch (error) {
        const { status, error: shown } = refusedOn(reply, error);
        return render(reply, user, status, { deleteError: shown });
      }
      clearSessionCookie(options, reply);
      return reply.redirect('/login?done=account-deleted', 303);
    }),
  );
}
