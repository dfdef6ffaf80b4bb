import type { FastifyInstance, FastifyReply } from 'fastify';
import { field } from '../../../web/form-fields.ts';
import { workspacePath } from '../../../web/frame.ts';
import { pageScope } from '../../../web/page-errors.ts';
import { rerenderRefused } from '../../../web/page-refusals.ts';
import { sendPage } from '../../../web/send-page.ts';
import {
  type InWorkspace,
  type WorkspaceDeps,
  workspaceForm,
  workspaceFrame,
  workspacePage,
} from '../../../web/session/workspace-pages.ts';
import { userAuditor } from '../../workspaces/index.ts';
import { type DomainsService, redirectTarget } from '../domains.ts';
import { type DomainsPageView, domainsPage } from './domains-page.ts';

/**
 * /w/<slug>/domains and its forms (docs/api.md §12): anyone in the workspace sees its domains;
 * roles that may `domains:write` add one, verify it by its TXT record, set its HTTPS and
 * redirects, remove it (never with live links: `318`) and choose the default for new links.
 * Every change goes through the domains service, as the API's and the CLI's do.
 */

export interface DomainPageOptions extends WorkspaceDeps {
  domains: DomainsService;
}

const domainsOf = (here: InWorkspace, done: string) =>
  workspacePath(here.workspace.slug, `/domains?done=${done}`);

/** An empty redirect field clears the redirect; anything else must be an absolute http(s) URL (`300`). */
const redirectField = (body: unknown, name: string): string | null => {
  const value = field(body, name).trim();
  return value === '' ? null : redirectTarget(value);
};

function domainsRenderer(options: DomainPageOptions) {
  async function render(
    reply: FastifyReply,
    here: InWorkspace,
    status: number,
    extra: Partial<DomainsPageView> = {},
  ) {
    const domains = await options.domains.list(here.workspace);
    const view = { frame: workspaceFrame(here), workspace: here.workspace, domains };
    return sendPage(reply, status, domainsPage({ ...view, ...extra }));
  }
  const refused = rerenderRefused<InWorkspace, DomainsPageView>(render);
  return { render, refused };
}

/** The pages scope of its own: app.ts registers it beside the account pages. */
export async function domainPages(app: FastifyInstance, options: DomainPageOptions): Promise<void> {
  pageScope(app);
  const { domains } = options;
  const { render, refused } = domainsRenderer(options);

  app.get(
    '/w/:workspace/domains',
    workspacePage(options, 'links:read', (request, reply, here) => {
      const done = field(request.query, 'done');
      return render(reply, here, 200, { done: done === '' ? undefined : done });
    }),
  );

  app.post(
    '/w/:workspace/domains',
    workspaceForm(options, 'domains:write', async (request, reply, here) => {
      const host = field(request.body, 'host').trim();
      try {
        await domains.add(host, { workspace: here.workspace, shared: false }, userAuditor(here.user));
        return reply.redirect(domainsOf(here, 'added'), 303);
      } catch (error) {
        return refused(reply, here, error, { draft: host });
      }
    }),
  );

  /** A change of one domain, named by the form's host, then back to the domains with `done`. */
  const domainForm = (
    path: string,
    change: (here: InWorkspace, host: string, body: unknown) => Promise<string>,
  ) =>
    app.post(
      path,
      workspaceForm(options, 'domains:write', async (request, reply, here) => {
        try {
          const done = await change(here, field(request.body, 'host'), request.body);
          return reply.redirect(domainsOf(here, done), 303);
        } catch (error) {
          return refused(reply, here, error);
        }
      }),
    );

  domainForm('/w/:workspace/domains/verify', async (here, host) => {
    const domain = await domains.verify(here.workspace, host, userAuditor(here.user));
    return domain.verifiedAt === null ? 'pending' : 'verified';
  });

  domainForm('/w/:workspace/domains/settings', async (here, host, body) => {
    const change = {
      https: field(body, 'https') === 'on',
      rootRedirect: redirectField(body, 'root_redirect'),
      notFoundRedirect: redirectField(body, 'not_found_redirect'),
    };
    await domains.update(here.workspace, host, change, userAuditor(here.user));
    return 'saved';
  });

  domainForm('/w/:workspace/domains/remove', async (here, host) => {
    await domains.remove(here.workspace, host, userAuditor(here.user));
    return 'removed';
  });

  /** An empty choice is the default domain (BASE_URL's host). */
  domainForm('/w/:workspace/domains/default', async (here, host) => {
    await domains.setDefault(here.workspace.id, host === '' ? null : host, userAuditor(here.user));
    return 'default-set';
  });
}
