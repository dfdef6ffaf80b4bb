import type { FastifyInstance, FastifyReply } from 'fastify';
import { KEY_PREFIX_LENGTH } from '../../domain/api-key.ts';
import type { ApiAccess } from '../../services/api-access.ts';
import { PASSWORD_MIN, type SignInService } from '../../services/sign-in.ts';
import { type AccountView, accountPage } from '../../web/pages/account-page.ts';
import type { PageError } from '../../web/pages/notices.ts';
import { field } from '../form-fields.ts';
import { setFreshKey, takeFreshKey } from '../fresh-key.ts';
import type { SessionDeps, SignedIn } from '../session.ts';
import { frameOf, sendPage, signedInForm, signedInPage } from '../signed-in.ts';

/** /account: Account Settings, its API Access section (reveal once, rotate) and the password change. */

export interface AccountRouteOptions extends SessionDeps {
  keys: ApiAccess;
  auth: SignInService;
}

const PASSWORD_ERRORS: Record<string, { status: number; error: PageError }> = {
  'wrong-password': {
    status: 403,
    error: { code: 'wrong-password', message: 'The current password is not right.' },
  },
  'password-invalid': {
    status: 400,
    error: { code: 'password-invalid', message: `A new password has ${PASSWORD_MIN} to 1,024 characters.` },
  },
};

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
      if (field(request.body, 'understand') !== 'yes') {
        const error = {
          code: 'confirm-required',
          message: 'Tick the box to confirm: the old key stops working at once.',
        };
        return render(reply, user, 400, { error });
      }
      const rotation = await keys.rotate(user.account);
      if (rotation.kind === 'no-api-access') {
        const error = { code: 'no-api-access', message: 'Your plan does not include API access.' };
        return render(reply, user, 403, { error });
      }
      setFreshKey(reply, options.policy, user.sessionId, rotation.apiKey, options.now());
      return reply.redirect('/account#api-access', 303);
    }),
  );

  app.post(
    '/account/password',
    signedInForm(options, async (request, reply, user) => {
      const current = field(request.body, 'current');
      const result = await auth.changePassword(
        user.account,
        current,
        field(request.body, 'password'),
        request.ip,
      );
      if (result.kind === 'changed') {
        await options.sessions.endOthers(user.account.id, user.session);
        return reply.redirect('/account?done=password-changed', 303);
      }
      if (result.kind === 'throttled') {
        reply.header('retry-after', String(result.retryAfterSeconds));
        const error = { code: 'throttled', message: 'Too many wrong passwords. Try again later.' };
        return render(reply, user, 429, { error });
      }
      const refusal = PASSWORD_ERRORS[result.kind] ?? {
        status: 400,
        error: { code: result.kind, message: 'Refused.' },
      };
      return render(reply, user, refusal.status, { error: refusal.error });
    }),
  );
}
