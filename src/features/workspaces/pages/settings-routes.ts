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
import { type WorkspaceAdmin, workspaceName, workspaceTimezone } from '../workspace-admin.ts';
import { settingsPage } from './settings-page.ts';

/** /w/<slug>/settings: admins and owners rename the workspace and set its time zone. */

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
      // A form without the field (an older page, a script) leaves the zone as it is.
      const zone = typeof (request.body as Record<string, unknown> | null)?.timezone === 'string';
      const timezone = zone ? field(request.body, 'timezone') : undefined;
      try {
        const by = userAuditor(here.user);
        // Both checked before either is saved, so a refused form changes nothing.
        if (timezone !== undefined) workspaceTimezone(timezone);
        workspaceName(name);
        await options.admin.rename(here.workspace, name, by);
        const before = here.workspace.timezone;
        const after =
          timezone === undefined
            ? before
            : (await options.admin.setTimezone(here.workspace, timezone, by)).timezone;
        const done = after === before ? 'renamed' : 'saved';
        return reply.redirect(workspacePath(here.workspace.slug, `/settings?done=${done}`), 303);
      } catch (error) {
        const { status, error: shown } = refusedOn(reply, error);
        const view = {
          frame: workspaceFrame(here),
          workspace: here.workspace,
          shortHost: shortHost(here.workspace.defaultDomain),
        };
        const draft = { draft: name, draftZone: timezone };
        return sendPage(reply, status, settingsPage({ ...view, error: shown, ...draft }));
      }
    }),
  );
}
