import type { FastifyInstance } from 'fastify';
import { field } from '../../../web/form-fields.ts';
import { workspacePath } from '../../../web/frame.ts';
import { refusedOn } from '../../../web/page-refusals.ts';
import { sendPage } from '../../../web/send-page.ts';
import {
  type WorkspaceDeps,
  workspaceForm,
  workspaceFrame,
  workspacePage,
} from '../../../web/session/workspace-pages.ts';
import { userAuditor } from '../audit-actor.ts';
import type { WorkspaceAdmin } from '../workspace-admin.ts';
import { settingsPage } from './settings-page.ts';

/** /w/<slug>/settings: admins and owners rename the workspace. */

export interface SettingsRouteOptions extends WorkspaceDeps {
  admin: WorkspaceAdmin;
  baseUrl: URL;
}

export async function settingsRoutes(app: FastifyInstance, options: SettingsRouteOptions): Promise<void> {
  const shortHost = (defaultDomain: string | null) => defaultDomain ?? options.baseUrl.host;

  app.get(
    '/w/:workspace/settings',
    workspacePage(options, 'settings:write', async (request, reply, here) => {
      const done = field(request.query, 'done');
      const view = {
        frame: workspaceFrame(here),
        workspace: here.workspace,
        shortHost: shortHost(here.workspace.defaultDomain),
      };
      return sendPage(reply, 200, settingsPage({ ...view, done: done === '' ? undefined : done }));
    }),
  );

  app.post(
    '/w/:workspace/settings',
    workspaceForm(options, 'settings:write', async (request, reply, here) => {
      const name = field(request.body, 'name');
      try {
        await options.admin.rename(here.workspace, name, userAuditor(here.user));
        return reply.redirect(workspacePath(here.workspace.slug, '/settings?done=renamed'), 303);
      } catch (error) {
        const { status, error: shown } = refusedOn(reply, error);
        const view = {
          frame: workspaceFrame(here),
          workspace: here.workspace,
          shortHost: shortHost(here.workspace.defaultDomain),
        };
        return sendPage(reply, status, settingsPage({ ...view, error: shown, draft: name }));
      }
    }),
  );
}
