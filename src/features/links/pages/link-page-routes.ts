import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Link } from '../../../core/entities.ts';
import { Refusal } from '../../../core/errors.ts';
import { LINK_CODE_PATTERN } from '../../../core/short-code.ts';
import { withAssumedScheme } from '../../../core/url-input.ts';
import { field } from '../../../web/form-fields.ts';
import { workspacePath } from '../../../web/frame.ts';
import { refusedOn } from '../../../web/page-refusals.ts';
import { sendPage } from '../../../web/send-page.ts';
import {
  type InWorkspace,
  workspaceForm,
  workspaceFrame,
  workspacePage,
} from '../../../web/session/workspace-pages.ts';
import { campaignFault, readCampaignForm } from './campaign-form.ts';
import { type LinkForm, linkChanges } from './dashboard.ts';
import {
  backTo,
  type DashboardRouteOptions,
  dashboardRenderer,
  pageDomain,
  type Query,
} from './dashboard-view.ts';
import { linkPageError } from './link-field-errors.ts';
import { type LinkView, linkPage } from './link-page.ts';
import { linkPath } from './link-parts.ts';
import { plainFault } from './plain-faults.ts';
import { PREVIEW_CARD_POLICY } from './preview-card.ts';
import { readRuleForm } from './rule-form.ts';
import { readVariantForm } from './variant-form.ts';

/** A new code of the wrong shape, refused before the change is tried: said next to the field. */
const SLUG_SHAPE = 'A short code is 3 to 64 characters: letters, digits, “_” and “-”.';

/** The link page, whose preview cards show their images from any https address. */
function sendLinkPage(reply: FastifyReply, status: number, view: LinkView) {
  reply.header('content-security-policy', PREVIEW_CARD_POLICY);
  return sendPage(reply, status, linkPage(view));
}

/** The edit panel's fields as sent. */
function linkFormOf(body: unknown, zone: string): LinkForm {
  return {
    // Typed without a scheme, a URL whose rest is a host gets https:// (docs/api.md §18).
    url: withAssumedScheme(field(body, 'url')),
    title: field(body, 'title'),
    group: field(body, 'group'),
    rules: readRuleForm(body, zone),
    campaign: readCampaignForm(body),
    // A form without the field (an older page, a script) leaves the tags as they are.
    tags:
      typeof (body as Record<string, unknown> | null)?.tags === 'string' ? field(body, 'tags') : undefined,
    slug: field(body, 'slug'),
    // An unticked box is not sent: the hidden field says the form had it.
    publicStats: field(body, 'public_stats_shown') === '' ? undefined : field(body, 'public_stats') !== '',
    test: readVariantForm(body, zone),
  };
}

/** /w/<slug>/links/<code>: one link, changed in place, or deleted. */
export async function linkPageRoutes(app: FastifyInstance, options: DashboardRouteOptions): Promise<void> {
  const { dashboard } = options;
  const { notFound } = dashboardRenderer(options);
  /** The link the address names (`?domain=` for one off the default domain), if the workspace has it. */
  const detailOf = (request: FastifyRequest, user: InWorkspace) => {
    const { code } = request.params as { code: string };
    const domainId = pageDomain(options, user.workspace.id, request.query);
    return domainId === undefined ? undefined : dashboard.link(user.workspace, domainId, code);
  };

  app.get<{ Params: { code: string } }>(
    '/w/:workspace/links/:code',
    workspacePage(options, 'links:read', async (request, reply, user) => {
      const detail = await detailOf(request, user);
      if (!detail) return notFound(reply, user, 'link');
      const { done, edit, target, qr } = request.query as Query;
      const view = {
        frame: workspaceFrame(user),
        origins: options.origins,
        detail,
        editing: edit !== undefined,
        designing: qr !== undefined,
      };
      return sendLinkPage(reply, 200, {
        ...view,
        done: typeof done === 'string' ? done : undefined,
        newTarget: target === 'new',
      });
    }),
  );

  /** Changes what the form changed, with the checks of the API; a refusal keeps the form as sent. */
  app.post(
    '/w/:workspace/links/:code',
    workspaceForm(options, 'links:write', async (request, reply, user) => {
      const detail = await detailOf(request, user);
      if (!detail) return notFound(reply, user, 'link');
      const form = linkFormOf(request.body, user.workspace.timezone);
      const patch = linkChanges(detail.link, form, detail.tags);
      const pageOf = (link: Link) => linkPath(workspacePath(user.workspace.slug), options.origins, link);
      const done = (what: string, page = pageOf(detail.link)) =>
        `${page}${page.includes('?') ? '&' : '?'}done=${what}`;
      if (Object.keys(patch).length === 0) return reply.redirect(done('unchanged'), 303);
      const badSlug = patch.slug !== undefined && !LINK_CODE_PATTERN.test(patch.slug);
      try {
        const actor = await dashboard.actorOf(user.workspace);
        if (badSlug) throw new Refusal('300', SLUG_SHAPE);
        const { link } = await options.editor.editFor(actor, detail.link.domainId, detail.link.code, patch);
        // "Saved" says the target changed only when it did (a new URL, or UTM values written into it).
        const retargeted = link.longUrl !== detail.link.longUrl;
        // A new code moves the page to the new code's address.
        return reply.redirect(done(retargeted ? 'saved&target=new' : 'saved', pageOf(link)), 303);
      } catch (error) {
        const refused = refusedOn(reply, error);
        const { status } = refused;
        const sent = { url: badSlug ? undefined : patch.url, title: patch.title, expiresAt: patch.expiresAt };
        const shown = plainFault(linkPageError(error, refused.error), sent);
        if (shown.code === '314') return notFound(reply, user, 'link');
        const fault =
          shown.code === '300' && !badSlug
            ? campaignFault(form.url.trim() || detail.link.longUrl, patch)
            : undefined;
        const view = { frame: workspaceFrame(user), origins: options.origins, detail, form, fault };
        return sendLinkPage(reply, status, { ...view, editing: true, error: shown, slugFault: badSlug });
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
