import type { FastifyInstance } from 'fastify';
import { withAssumedScheme } from '../../../core/url-input.ts';
import { field } from '../../../web/form-fields.ts';
import { workspacePath } from '../../../web/frame.ts';
import { refusedOn } from '../../../web/page-refusals.ts';
import { workspaceForm, workspacePage } from '../../../web/session/workspace-pages.ts';
import { campaignDraft, campaignFault, readCampaignForm } from './campaign-form.ts';
import { tagsOfText } from './dashboard.ts';
import { type DashboardRouteOptions, dashboardRenderer } from './dashboard-view.ts';
import { linkPageError } from './link-field-errors.ts';
import { plainFault } from './plain-faults.ts';
import { readRuleForm, ruleDraft } from './rule-form.ts';
import { readVariantForm, variantDraft } from './variant-form.ts';

/** /w/<slug>: the workspace's links, usage, chart and groups, and the form that creates a link. */
export async function dashboardRoutes(app: FastifyInstance, options: DashboardRouteOptions): Promise<void> {
  const { dashboard } = options;
  const { render } = dashboardRenderer(options);

  app.get(
    '/w/:workspace',
    workspacePage(options, 'links:read', (request, reply, user) => render(request, reply, user, 200)),
  );

  app.post(
    '/w/:workspace/links',
    workspaceForm(options, 'links:create', async (request, reply, user) => {
      const draft = {
        // Typed without a scheme, a URL whose rest is a host gets https:// (docs/api.md §18).
        url: withAssumedScheme(field(request.body, 'url')),
        group: field(request.body, 'group'),
        slug: field(request.body, 'slug').trim(),
        title: field(request.body, 'title'),
        tags: field(request.body, 'tags'),
        domain: field(request.body, 'domain').trim(),
        rules: readRuleForm(request.body, user.workspace.timezone),
        campaign: readCampaignForm(request.body),
        test: readVariantForm(request.body, user.workspace.timezone),
      };
      const campaign = campaignDraft(draft.campaign);
      try {
        const actor = await dashboard.actorOf(user.workspace);
        const { link } = await options.createLinkFor(actor, {
          url: draft.url,
          group: draft.group,
          // An empty custom code is none: a code is drawn.
          slug: draft.slug === '' ? undefined : draft.slug,
          // An empty title is none: the target page's own is read.
          ...(draft.title.trim() === '' ? {} : { title: draft.title }),
          ...(tagsOfText(draft.tags).length === 0 ? {} : { tags: tagsOfText(draft.tags) }),
          domain: draft.domain === '' ? undefined : draft.domain,
          ...ruleDraft(draft.rules),
          ...variantDraft(draft.test),
          ...campaign,
          clientAddress: request.ip,
        });
        // A link on the workspace's own default domain is named with its domain.
        const on =
          link.domainId === 0
            ? ''
            : `&created_domain=${encodeURIComponent(options.origins.hostOf(link.domainId))}`;
        return reply.redirect(`${workspacePath(user.workspace.slug)}?created=${link.code}${on}`, 303);
      } catch (error) {
        const refused = refusedOn(reply, error);
        const sent = { url: draft.url, title: draft.title, expiresAt: ruleDraft(draft.rules).expiresAt };
        const shown = plainFault(linkPageError(error, refused.error), sent);
        const fault = shown.code === '300' ? campaignFault(draft.url, campaign) : undefined;
        return render(request, reply, user, refused.status, { error: shown, draft, fault });
      }
    }),
  );
}
