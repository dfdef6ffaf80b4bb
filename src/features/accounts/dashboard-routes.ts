import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LinkPosition } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import type { AccountGroups } from '../../core/groups.ts';
import type { CreateLinkFor } from '../../core/ports/link-creator.ts';
import type { LinkEditor } from '../../core/ports/link-editor.ts';
import { messagePage } from '../../web/message-page.ts';
import { sendPage } from '../../web/send-page.ts';
import { type DashboardService, type LinkFilter, linkChanges } from './dashboard.ts';
import { field, positiveInt } from './form-fields.ts';
import { refusedOn } from './page-refusals.ts';
import { type DashboardView, dashboardPage } from './pages/dashboard-page.ts';
import { linkPage } from './pages/link-page.ts';
import { readRuleForm, ruleDraft } from './rule-form.ts';
import type { SessionDeps, SignedIn } from './session-cookie.ts';
import { frameOf, signedInForm, signedInPage } from './signed-in.ts';

/** /dashboard: the account's links, usage, chart and groups; /dashboard/links/<code>: one link, changed in place. */

export interface DashboardRouteOptions extends SessionDeps {
  dashboard: DashboardService;
  groups: AccountGroups;
  /** Creating a link with every check of /create, for the signed-in account. */
  createLinkFor: CreateLinkFor;
  editor: LinkEditor;
  baseUrl: URL;
}

type Query = Record<string, unknown>;
const MAX_SEARCH = 200;

/** A page position in an address: `<value>.<id>`; anything else is no position (the first page). */
function position(raw: unknown): LinkPosition | undefined {
  const match = typeof raw === 'string' ? /^(\d{1,15})\.(\d{1,15})$/.exec(raw) : null;
  return match ? { value: Number(match[1]), id: Number(match[2]) } : undefined;
}

function filterOf(query: Query): LinkFilter {
  return {
    search: typeof query.q === 'string' ? query.q.trim().slice(0, MAX_SEARCH) : '',
    groupId: positiveInt(query.group),
    order: query.order === 'clicks' ? 'clicks' : 'created',
    after: position(query.after),
    before: position(query.before),
  };
}

/** Where to go back after a delete: a dashboard address only, never anywhere else. */
function backTo(raw: string, done: string): string {
  const url = new URL(raw.startsWith('/dashboard') ? raw : '/dashboard', 'http://snip.invalid');
  if (url.origin !== 'http://snip.invalid' || url.pathname !== '/dashboard') return `/dashboard?done=${done}`;
  url.searchParams.set('done', done);
  return `${url.pathname}${url.search}`;
}

export async function dashboardRoutes(app: FastifyInstance, options: DashboardRouteOptions): Promise<void> {
  const { dashboard, groups } = options;

  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    user: SignedIn,
    status: number,
    extra: Partial<DashboardView> = {},
  ) {
    const query = request.query as Query;
    const filter = filterOf(query);
    const overview = await dashboard.overview(user.account, filter);
    const createdCode = typeof query.created === 'string' ? query.created : undefined;
    const created = createdCode ? await dashboard.ownLink(user.account, createdCode) : undefined;
    const done = typeof query.done === 'string' ? query.done : undefined;
    const view = {
      frame: frameOf(user),
      baseUrl: options.baseUrl,
      overview,
      filter,
      created,
      done,
      ...extra,
    };
    return sendPage(reply, status, dashboardPage(view));
  }

  function notFound(reply: FastifyReply, user: SignedIn, what: string) {
    const error = { code: 'not-found', message: `No ${what} of this account has that address.` };
    return sendPage(reply, 404, messagePage({ title: 'Not found', error, frame: frameOf(user) }));
  }

  /**
   * A group change, then back to the groups; a refusal re-renders the dashboard with its reason, and
   * a group that is not the account's is a 404.
   */
  async function changeGroup(
    request: FastifyRequest,
    reply: FastifyReply,
    user: SignedIn,
    change: () => Promise<unknown>,
    done: string,
  ) {
    try {
      await change();
      return reply.redirect(`/dashboard?done=${done}#groups`, 303);
    } catch (error) {
      const { status, error: shown } = refusedOn(reply, error);
      if (shown.code === 'not-found') return notFound(reply, user, 'group');
      return render(request, reply, user, status, {
        error: { ...shown, message: `Not saved: ${shown.message}.` },
      });
    }
  }

  const groupId = (request: FastifyRequest) => {
    const id = positiveInt((request.params as { id: string }).id);
    if (id === undefined) throw new Refusal('not-found');
    return id;
  };
  const groupFields = (request: FastifyRequest) =>
    [field(request.body, 'name'), field(request.body, 'api_id')] as const;

  app.get(
    '/dashboard',
    signedInPage(options, (request, reply, user) => render(request, reply, user, 200)),
  );

  app.post(
    '/dashboard/links',
    signedInForm(options, async (request, reply, user) => {
      const draft = {
        url: field(request.body, 'url'),
        group: field(request.body, 'group'),
        slug: field(request.body, 'slug').trim(),
        rules: readRuleForm(request.body),
      };
      try {
        const actor = await dashboard.actorOf(user.account);
        const { link } = await options.createLinkFor(actor, {
          url: draft.url,
          group: draft.group,
          // An empty custom code is none: a code is drawn.
          slug: draft.slug === '' ? undefined : draft.slug,
          ...ruleDraft(draft.rules),
          clientAddress: request.ip,
        });
        return reply.redirect(`/dashboard?created=${link.code}`, 303);
      } catch (error) {
        const { status, error: shown } = refusedOn(reply, error);
        return render(request, reply, user, status, { error: shown, draft });
      }
    }),
  );

  app.get<{ Params: { code: string } }>(
    '/dashboard/links/:code',
    signedInPage(options, async (request, reply, user) => {
      const { code } = request.params as { code: string };
      const detail = await dashboard.link(user.account, code);
      if (!detail) return notFound(reply, user, 'link');
      const done = (request.query as Query).done;
      const view = { frame: frameOf(user), baseUrl: options.baseUrl, detail };
      return sendPage(reply, 200, linkPage({ ...view, done: typeof done === 'string' ? done : undefined }));
    }),
  );

  /** Changes what the form changed, with the checks of the API; a refusal keeps the form as sent. */
  app.post(
    '/dashboard/links/:code',
    signedInForm(options, async (request, reply, user) => {
      const { code } = request.params as { code: string };
      const detail = await dashboard.link(user.account, code);
      if (!detail) return notFound(reply, user, 'link');
      const form = {
        url: field(request.body, 'url'),
        title: field(request.body, 'title'),
        group: field(request.body, 'group'),
        rules: readRuleForm(request.body),
      };
      const patch = linkChanges(detail.link, form);
      const page = `/dashboard/links/${detail.link.code}`;
      if (Object.keys(patch).length === 0) return reply.redirect(`${page}?done=unchanged`, 303);
      try {
        await options.editor.editFor(await dashboard.actorOf(user.account), detail.link.code, patch);
        return reply.redirect(`${page}?done=saved`, 303);
      } catch (error) {
        const { status, error: shown } = refusedOn(reply, error);
        if (shown.code === '314') return notFound(reply, user, 'link');
        const view = { frame: frameOf(user), baseUrl: options.baseUrl, detail, error: shown, form };
        return sendPage(reply, status, linkPage(view));
      }
    }),
  );

  app.post(
    '/dashboard/links/:code/delete',
    signedInForm(options, async (request, reply, user) => {
      const { code } = request.params as { code: string };
      try {
        await options.editor.remove(user.account.id, code);
      } catch (error) {
        if (error instanceof Refusal && error.code === '314') return notFound(reply, user, 'link');
        throw error;
      }
      return reply.redirect(backTo(field(request.body, 'back'), 'link-deleted'), 303);
    }),
  );

  app.post(
    '/dashboard/groups',
    signedInForm(options, (request, reply, user) =>
      changeGroup(
        request,
        reply,
        user,
        () => groups.create(user.account, ...groupFields(request)),
        'group-created',
      ),
    ),
  );

  app.post(
    '/dashboard/groups/:id',
    signedInForm(options, (request, reply, user) =>
      changeGroup(
        request,
        reply,
        user,
        async () => groups.rename(user.account, groupId(request), ...groupFields(request)),
        'group-renamed',
      ),
    ),
  );

  app.post(
    '/dashboard/groups/:id/delete',
    signedInForm(options, (request, reply, user) =>
      changeGroup(
        request,
        reply,
        user,
        async () => groups.delete(user.account, groupId(request)),
        'group-deleted',
      ),
    ),
  );
}
