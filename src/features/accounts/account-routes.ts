import type { FastifyInstance, FastifyReply } from 'fastify';
import { KEY_PREFIX_LENGTH } from '../../core/api-key.ts';
import { Refusal } from '../../core/errors.ts';
import { sendPage } from '../../web/send-page.ts';
import type { ApiAccess } from './api-access.ts';
import { field } from './form-fields.ts';
import { setFreshKey, takeFreshKey } from './fresh-key.ts';
import { refusedOn } from './page-refusals.ts';
import { type AccountView, accountPage } from './pages/account-page.ts';
import type { SessionDeps, SignedIn } from './session-cookie.ts';
import { PASSWORD_MIN, type SignInService } from './sign-in.ts';
import { frameOf, signedInForm, signedInPage } from './signed-in.ts';

/** /account: Account Settings, its API Access section (reveal once, rotate) and the password change. */

export interface AccountRouteOptions extends SessionDeps {
  keys: ApiAccess;
  auth: SignInService;
}

export async function accountRoutes(app: FastifyInstance, options: AccountRouteOptions): Promise<void> {
  const { keys, auth } = options;

  async function render(
    reply: FastifyReply,
    user: SignedIn,
    status: number,
    extra: Partial<AccountView> = {},
  ) {
    const key = await keys.liveKey(user.account);
    const view = { frame: frameOf(user), account: user.account, key, minPassword: PASSWORD_MIN, ...extra };
    return sendPage(reply, status, accountPage(view));
  }

  app.get(
    '/account',
    signedInPage(options, async (request, reply, user) => {
      const key = await keys.liveKey(user.account);
      const fresh = takeFreshKey(request, reply, options.policy, user.sessionId, options.now());
      // Only the live key is ever shown: a key rotated again since (or a plan without API access) is not.
      const freshKey = fresh && key && fresh.slice(0, KEY_PREFIX_LENGTH) === key.prefix ? fresh : undefined;
      const done = (request.query as Record<string, unknown>).done;
      return render(reply, user, 200, { freshKey, done: typeof done === 'string' ? done : undefined });
    }),
  );

  app.post(
    '/account/key',
    signedInForm(options, async (request, reply, user) => {
      try {
        if (field(request.body, 'understand') !== 'yes') {
          throw new Refusal(
            'confirm-required',
            'Tick the box to confirm: the old key stops working at once.',
          );
        }
        const apiKey = await keys.rotate(user.account);
        setFreshKey(reply, options.policy, user.sessionId, apiKey, options.now());
        return reply.redirect('/account#api-access', 303);
      } catch (error) {
        const { status, error: shown } = refusedOn(reply, error);
        return render(reply, user, status, { error: shown });
      }
    }),
  );

  app.post(
    '/account/password',
    signedInForm(options, async (request, reply, user) => {
      const [current, next] = [field(request.body, 'current'), field(request.body, 'password')];
      try {
        await auth.changePassword(user.account, current, next, request.ip);
      } catch (error) {
        const { status, error: shown } = refusedOn(reply, error);
        return render(reply, user, status, { error: shown });
      }
      await options.sessions.endOthers(user.account.id, user.session);
      return reply.redirect('/account?done=password-changed', 303);
    }),
  );
}
