import type { FastifyInstance, FastifyReply } from 'fastify';
import { KEY_PREFIX_LENGTH } from '../../../core/api-key.ts';
import type { ApiKeyInfo } from '../../../core/entities.ts';
import { Refusal } from '../../../core/errors.ts';
import { isScope } from '../../../core/scopes.ts';
import { field, fieldList, positiveInt } from '../../../web/form-fields.ts';
import { workspacePath } from '../../../web/frame.ts';
import { rerenderRefused } from '../../../web/page-refusals.ts';
import { sendPage } from '../../../web/send-page.ts';
import {
  type InWorkspace,
  type WorkspaceDeps,
  workspaceForm,
  workspaceFrame,
  workspacePage,
} from '../../../web/session/workspace-pages.ts';
import type { ApiAccess } from '../api-access.ts';
import { userAuditor } from '../audit-actor.ts';
import { setFreshKey, takeFreshKey } from '../fresh-key.ts';
import type { ApiAccessView, FreshKey } from './api-access-card.ts';
import { keysPage } from './keys-page.ts';

/** /w/<slug>/keys: the keys, and the forms that rotate the main key, add a key and revoke one. */

export interface KeyRouteOptions extends WorkspaceDeps {
  keys: ApiAccess;
}

/** The one-time key, if it is still one of the live keys: one rotated or revoked since is not shown. */
export function freshOf(key: string | undefined, live: readonly ApiKeyInfo[]): FreshKey | undefined {
  const info = key === undefined ? undefined : live.find((k) => k.prefix === key.slice(0, KEY_PREFIX_LENGTH));
  return key !== undefined && info ? { key, info } : undefined;
}

const maker = (here: InWorkspace) => ({ userId: here.user.id, role: here.role, by: userAuditor(here.user) });

const keysOf = (here: InWorkspace) => workspacePath(here.workspace.slug, '/keys');

/** The Keys page, and the same page again after a refused form, the reason shown. */
function keysRenderer(keys: ApiAccess) {
  async function render(
    reply: FastifyReply,
    here: InWorkspace,
    status: number,
    extra: Partial<ApiAccessView> = {},
  ) {
    const live = extra.keys ?? (await keys.keys(here.workspace));
    const view = { frame: workspaceFrame(here), workspace: here.workspace, ...extra, keys: live };
    return sendPage(reply, status, keysPage(view));
  }
  const refused = rerenderRefused<InWorkspace, ApiAccessView>(render);
  return { render, refused };
}

export async function keyRoutes(app: FastifyInstance, options: KeyRouteOptions): Promise<void> {
  const { keys } = options;
  const { render, refused } = keysRenderer(keys);

  app.get(
    '/w/:workspace/keys',
    workspacePage(options, 'keys:write', async (request, reply, here) => {
      const live = await keys.keys(here.workspace);
      // Only a live key is ever shown: one rotated or revoked since (or a plan without API access) is not.
      const fresh = freshOf(
        takeFreshKey(request, reply, options.policy, here.sessionId, options.now()),
        live,
      );
      const done = (request.query as Record<string, unknown>).done;
      return render(reply, here, 200, {
        keys: live,
        fresh,
        done: typeof done === 'string' ? done : undefined,
      });
    }),
  );

  app.post(
    '/w/:workspace/keys/main',
    workspaceForm(options, 'keys:write', async (request, reply, here) => {
      try {
        if (field(request.body, 'understand') !== 'yes') {
          throw new Refusal(
            'confirm-required',
            'Tick the box to confirm: the old key stops working at once.',
          );
        }
        const apiKey = await keys.rotate(here.workspace, maker(here));
        setFreshKey(reply, options.policy, here.sessionId, apiKey, options.now());
        return reply.redirect(keysOf(here), 303);
      } catch (error) {
        return refused(reply, here, error);
      }
    }),
  );

  app.post(
    '/w/:workspace/keys',
    workspaceForm(options, 'keys:write', async (request, reply, here) => {
      const name = field(request.body, 'name');
      const scopes = fieldList(request.body, 'scopes').filter(isScope);
      try {
        const apiKey = await keys.add(here.workspace, maker(here), name, scopes);
        setFreshKey(reply, options.policy, here.sessionId, apiKey, options.now());
        return reply.redirect(`${keysOf(here)}?done=key-created`, 303);
      } catch (error) {
        return refused(reply, here, error, { keyDraft: { name, scopes } });
      }
    }),
  );

  app.post(
    '/w/:workspace/keys/:id/revoke',
    workspaceForm(options, 'keys:write', async (request, reply, here) => {
      const id = positiveInt((request.params as { id: string }).id);
      try {
        if (id === undefined)
          throw new Refusal('not-found', 'This workspace has no further key with that ID.');
        await keys.revoke(here.workspace, maker(here), id);
        return reply.redirect(`${keysOf(here)}?done=key-revoked`, 303);
      } catch (error) {
        return refused(reply, here, error);
      }
    }),
  );
}
