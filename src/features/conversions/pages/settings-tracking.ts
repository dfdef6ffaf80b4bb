import type { FastifyInstance } from 'fastify';
import type { Workspace } from '../../../core/entities.ts';
import { workspacePath } from '../../../web/frame.ts';
import { pageScope } from '../../../web/page-errors.ts';
import { type WorkspaceDeps, workspaceForm } from '../../../web/session/workspace-pages.ts';

/**
 * POST /w/<slug>/settings/conversions: the Settings page's box for the workspace's default of
 * conversion tracking (docs/api.md §20); admins and owners, as the rest of Settings.
 */
export interface TrackingFormOptions extends WorkspaceDeps {
  setTracking: (workspace: Workspace, track: boolean) => Promise<Workspace>;
}

export async function trackingSettingsRoute(
  app: FastifyInstance,
  options: TrackingFormOptions,
): Promise<void> {
  pageScope(app);
  app.post(
    '/w/:workspace/settings/conversions',
    workspaceForm(options, 'settings:write', async (request, reply, here) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      await options.setTracking(here.workspace, body.track_conversions !== undefined);
      return reply.redirect(workspacePath(here.workspace.slug, '/settings?done=conversions'), 303);
    }),
  );
}
