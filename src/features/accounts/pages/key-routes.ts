import type { FastifyInstance } from 'fastify';
import { Refusal } from '../../../core/errors.ts';
import { isScope } from '../../../core/scopes.ts';
import { field, fieldList, positiveInt } from '../../../web/form-fields.ts';
import { signedInForm } from '../../../web/session/handlers.ts';
import { setFreshKey } from '../fresh-key.ts';
import { type AccountRouteOptions, accountRenderer } from './account-view.ts';

/** The API Access forms of /account: rotate the main key, add a further key, revoke one. */

const API_ACCESS = '/account#api-access';

export async function keyRoutes(app: FastifyInstance, options: AccountRouteOptions): Promise<void> {
  const { keys } = options;
  const { refused } = accountRenderer(keys);

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
}
