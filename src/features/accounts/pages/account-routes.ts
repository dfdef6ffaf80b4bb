import type { FastifyInstance } from 'fastify';
import { field } from '../../../web/form-fields.ts';
import { refusedOn } from '../../../web/page-refusals.ts';
import { signedInForm, signedInPage } from '../../../web/session/handlers.ts';
import { takeFreshKey } from '../fresh-key.ts';
import { type AccountRouteOptions, accountRenderer, freshOf } from './account-view.ts';

/** GET /account (Account Settings) and its password change; the key forms are key-routes.ts. */
export async function accountRoutes(app: FastifyInstance, options: AccountRouteOptions): Promise<void> {
  const { keys, auth } = options;
  const { render } = accountRenderer(keys);

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
