import type { FastifyInstance } from 'fastify';
import { Refusal } from '../../../core/errors.ts';
import { field } from '../../../web/form-fields.ts';
import { workspacePath } from '../../../web/frame.ts';
import { workspaceForm } from '../../../web/session/workspace-pages.ts';
import { backTo, type DashboardRouteOptions, dashboardRenderer, pageDomain } from './dashboard-view.ts';
import { linkPath } from './link-parts.ts';

/**
 * POST /w/<slug>/links/<code>/archive: the row menu's and the link page's Archive and Unarchive
 * (docs/api.md §18), a change like the edit panel's, in the same window. `archived=false` shows the
 * link again; anything else archives it. Back to the link's page when sent from there, else to the
 * list it was sent from.
 */
export async function linkArchiveRoute(app: FastifyInstance, options: DashboardRouteOptions): Promise<void> {
  const { notFound } = dashboardRenderer(options);

  app.post(
    '/w/:workspace/links/:code/archive',
    workspaceForm(options, 'links:write', async (request, reply, user) => {
      const { code } = request.params as { code: string };
      const domainId = pageDomain(options, user.workspace.id, request.query);
      if (domainId === undefined) return notFound(reply, user, 'link');
      const archived = field(request.body, 'archived') !== 'false';
      try {
        const actor = await options.dashboard.actorOf(user.workspace);
        await options.editor.editFor(actor, domainId, code, { archived });
      } catch (error) {
        if (error instanceof Refusal && error.code === '314') return notFound(reply, user, 'link');
        throw error;
      }
      const base = workspacePath(user.workspace.slug);
      const page = linkPath(base, options.origins, { code, domainId });
      const back = field(request.body, 'back');
      const done = archived ? 'archived' : 'unarchived';
      if (back === page) return reply.redirect(`${page}${page.includes('?') ? '&' : '?'}done=${done}`, 303);
      return reply.redirect(backTo(base, back, `link-${done}`), 303);
    }),
  );
}
