import type { FastifyInstance, FastifyReply } from 'fastify';
import { KEY_PREFIX_LENGTH } from '../../core/api-key.ts';
import type { ApiKeyInfo } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import { isScope } from '../../core/scopes.ts';
import { sendPage } from '../../web/send-page.ts';
import type { ApiAccess } from './api-access.ts';
import { field, fieldList, positiveInt } from './form-fields.ts';
import { setFreshKey, takeFreshKey } from './fresh-key.ts';
import { refusedOn } from './page-refusals.ts';
import { type AccountView, accountPage } from './pages/account-page.ts';
import type { FreshKey } from './pages/api-access-card.ts';
import type { SessionDeps, SignedIn } from './session-cookie.ts';
import { PASSWORD_MIN, type SignInService } from './sign-in.ts';
import { frameOf, signedInForm, signedInPage } from './signed-in.ts';

/**
 * /account: Account Settings, its API Access section (the main key and further keys, each shown
 * once; rotate, add, revoke) and the password change.
 */

export interface AccountRouteOptions extends SessionDeps {
  keys: ApiAccess;
  auth: SignInService;
}

/** The one-time key, if it is still one of the live keys: one rotated or revoked since is not shown. */
function freshOf(key: string | undefined, live: readonly ApiKeyInfo[]): FreshKey | undefined {
  const info = key === undefined ? undefined : live.find((k) => k.prefix === key.slice(0, KEY_PREFIX_LENGTH));
  return key !== undefined && info ? { key, info } : undefined;
}

const API_ACCESS = '/account#api-access';

export async function accountRoutes(app: FastifyInstance, options: AccountRouteOptions): Promise<void> {
  const { keys, auth } = options;

  async function render(
    reply: FastifyReply,
    user: SignedIn,
    status: number,
    extra: Partial<AccountView> = {},
  ) {
    const live = extra.keys ?? (await keys.keys(user.account));
    const frame = frameOf(user);
    const view = { frame, account: user.account, minPassword: PASSWORD_MIN, ...extra, keys: live };
    return sendPage(reply, status, accountPage(view));
  }

  /** After a refused key form: the page again, the reason in API Access. */
  function refused(reply: FastifyReply, user: SignedIn, error: unknown, extra: Partial<AccountView> = {}) {
    const { status, error: shown } = refusedOn(reply, error);
    return render(reply, user, status, { ...extra, error: shown });
  }

  app.get(
    '/account',
    signedInPage(options, async (request, reply, user) => {
      const live = await keys.keys(user.account);
      // Only a live key is ever shown: one rotated or revoked since (or a plan without API access) is not.
      const fresh = freshOf(
        takeFreshKey(request, reply, options.policy, user.sessionId, options.now()),
        live,
      );
      const done = (request.query as Record<string, unknown>).done;
      return render(reply, user, 200, {
        keys: live,
        fresh,
        done: typeof done === 'string' ? done : undefined,
      });
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
        return reply.redirect(API_ACCESS, 303);
      } catch (error) {
        return refused(reply, user, error);
      }
    }),
  );

  app.post(
    '/account/keys',
    signedInForm(options, async (request, reply, user) => {
      const name = field(request.body, 'name');
      const scopes = fieldList(request.body, 'scopes').filter(isScope);
      try {
        const apiKey = await keys.add(user.account, name, scopes);
        setFreshKey(reply, options.policy, user.sessionId, apiKey, options.now());
        return reply.redirect(`/account?done=key-created#api-access`, 303);
      } catch (error) {
        return refused(reply, user, error, { keyDraft: { name, scopes } });
      }
    }),
  );

  app.post(
    '/account/keys/:id/revoke',
    signedInForm(options, async (request, reply, user) => {
      const id = positiveInt((request.params as { id: string }).id);
      try {
        if (id === undefined) throw new Refusal('not-found', 'This account has no further key with that ID.');
        await keys.revoke(user.account, id);
        return reply.redirect(`/account?done=key-revoked#api-access`, 303);
      } catch (error) {
        return refused(reply, user, error);
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
        return render(reply, user, status, { passwordError: shown });
      }
      await options.sessions.endOthers(user.account.id, user.session);
      return reply.redirect('/account?done=password-changed', 303);
    }),
  );
}
