import type { FastifyInstance } from 'fastify';
import { Refusal } from '../../../core/errors.ts';
import { field } from '../../../web/form-fields.ts';
import { workspacePath } from '../../../web/frame.ts';
import { refusedOn } from '../../../web/page-refusals.ts';
import { sendPage } from '../../../web/send-page.ts';
import { workspaceForm, workspaceFrame, workspacePage } from '../../../web/session/workspace-pages.ts';
import { linkChanges } from './dashboard.ts';
import {
  backTo,
  type DashboardRouteOptions,
  dashboardRenderer,
  pageDomain,
  type Query,
} from './dashboard-view.ts';
import { linkPage } from './link-page.ts';
import { linkPath } from './link-parts.ts';
import { readRuleForm } from './rule-form.ts';

/** /w/<slug>/links/<code>: one link, changed in place, or deleted. */
export async function linkPageRoutes(app: FastifyInstance, options: DashboardRouteOptions): Promise<void> {
  const { dashboard } = options;
  const { notFound } = dashboardRenderer(options);

  app.get<{ Params: { code: string } }>(
    '/w/:workspace/links/:code',
    workspacePage(options, 'links:read', async (request, reply, user) => {
      const { code } = request.params as { code: string };
      const domainId = pageDomain(options, user.workspace.id, request.query);
      const detail =
        domainId === undefined ? undefined : await dashboard.link(user.workspace, domainId, code);
      if (!detail) return notFound(reply, user, 'link');
      const done = (request.query as Query).done;
      const view = { frame: workspaceFrame(user), origins: options.origins, detail };
      return sendPage(reply, 200, linkPage({ ...view, done: typeof done === 'string' ? done : undefined }));
    }),
  );

  /** Changes what the form changed, with the checks of the API; a refusal keeps the form as sent. */
  app.post(
    '/w/:workspace/links/:code',
    workspaceForm(options, 'links:write', async (request, reply, user) => {
      const { code } = request.params as { code: string };
      const domainId = pageDomain(options, user.workspace.id, request.query);
      const detail =
        domainId === undefined ? undefined : await dashboard.link(user.workspace, domainId, code);
      if (!detail) return notFound(reply, user, 'link');
      const form = {
        url: field(request.body, 'url'),
        title: field(request.body, 'title'),
        group: field(request.body, 'group'),
        rules: readRuleForm(request.body),
      };
      const patch = linkChanges(detail.link, form);
      const page = linkPath(workspacePath(user.workspace.slug), options.origins, detail.link);
      const done = (what: string) => `${page}${page.includes('?') ? '&' : '?'}done=${what}`;
      if (Object.keys(patch).length === 0) return reply.redirect(done('unchanged'), 303);
      try {
        const actor = await dashboard.actorOf(user.workspace);
        await options.editor.editFor(actor, detail.link.domainId, detail.link.code, patch);
        return reply.redirect(done('saved'), 303);
      } catch (error) {
        const { status, error: shown } = refusedOn(reply, error);
        if (shown.code === '314') return notFound(reply, user, 'link');
        const view = { frame: workspaceFrame(user), origins: options.origins, detail, error: shown, form };
        return sendPage(reply, status, linkPage(view));
      }
    }),
  );

  app.post(
    '/w/:workspace/links/:code/delete',
    workspaceForm(options, 'links:write', async (request, reply, user) => {
      const { code } = request.params as { code: string };
      const domainId = pageDomain(options, user.workspace.id, request.query);
      try {
        if (domainId === undefined) throw new Refusal('314');
        await options.editor.remove(user.workspace.id, domainId, code);
      } catch (error) {
        if (error instanceof Refusal && error.code === '314') return notFound(reply, user, 'link');
        throw error;
      }
      return reply.redirect(
        backTo(workspacePath(user.workspace.slug), field(request.body, 'back'), 'link-deleted'),
        303,
      );
    }),
  );
}
