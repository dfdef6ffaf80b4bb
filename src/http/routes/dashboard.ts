import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isApiError } from '../../domain/errors.ts';
import type { AccountGroups, GroupChange } from '../../services/account-groups.ts';
import type { CreatedLink, CreateLinkRequest } from '../../services/create-link.ts';
import type { DashboardService, LinkFilter } from '../../services/dashboard.ts';
import { type DashboardView, dashboardPage } from '../../web/pages/dashboard-page.ts';
import { linkPage } from '../../web/pages/link-page.ts';
import { messagePage } from '../../web/pages/message.ts';
import { field, positiveInt } from '../form-fields.ts';
import type { SessionDeps, SignedIn } from '../session.ts';
import { frameOf, sendPage, signedInForm, signedInPage } from '../signed-in.ts';

/** /dashboard: the account's links, usage, chart and groups; /dashboard/links/<code>: one link. */

export interface DashboardRouteOptions extends SessionDeps {
  dashboard: DashboardService;
  groups: AccountGroups;
  /** The /create story, gated by the session's account (sessionKeyGate). */
  createLink: (request: CreateLinkRequest) => Promise<CreatedLink>;
  baseUrl: URL;
}

type Query = Record<string, unknown>;
const MAX_SEARCH = 200;

function filterOf(query: Query): LinkFilter {
  return {
    page: positiveInt(query.page) ?? 1,
    search: typeof query.q === 'string' ? query.q.trim().slice(0, MAX_SEARCH) : '',
    groupId: positiveInt(query.group),
  };
}

/** Where to go back after a delete: a dashboard address only, never anywhere else. */
function backTo(raw: string, done: string): string {
  const url = new URL(raw.startsWith('/dashboard') ? raw : '/dashboard', 'http://snip.invalid');
  if (url.origin !== 'http://snip.invalid' || url.pathname !== '/dashboard') return `/dashboard?done=${done}`;
  url.searchParams.set('done', done);
  return `${url.pathname}${url.search}`;
}

const GROUP_STATUS = { invalid: 400, 'api-id-taken': 409 } as const;

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

  /** A refused group change re-renders the dashboard with its reason; a missing group is a 404. */
  function groupRefused(request: FastifyRequest, reply: FastifyReply, user: SignedIn, change: GroupChange) {
    if (change.kind === 'not-found') return notFound(reply, user, 'group');
    if (change.kind === 'invalid') {
      const error = { code: `group-${change.field}-invalid`, message: `Not saved: ${change.rule}.` };
      return render(request, reply, user, GROUP_STATUS.invalid, { error });
    }
    const error = {
      code: 'api-id-taken',
      message: 'Not saved: another group of this account has that API identifier.',
    };
    return render(request, reply, user, GROUP_STATUS['api-id-taken'], { error });
  }

  app.get(
    '/dashboard',
    signedInPage(options, (request, reply, user) => render(request, reply, user, 200)),
  );

  app.post(
    '/dashboard/links',
    signedInForm(options, async (request, reply, user) => {
      const draft = { url: field(request.body, 'url'), group: field(request.body, 'group') };
      try {
        const { link } = await options.createLink({
          apiKey: String(user.account.id),
          url: draft.url,
          group: draft.group,
          clientAddress: request.ip,
        });
        return reply.redirect(`/dashboard?created=${link.code}`, 303);
      } catch (error) {
        if (!isApiError(error)) throw error;
        if (error.headers['retry-after']) reply.header('retry-after', error.headers['retry-after']);
        return render(request, reply, user, error.status, {
          error: { code: error.code, message: error.message },
          draft,
        });
      }
    }),
  );

  app.get<{ Params: { code: string } }>(
    '/dashboard/links/:code',
    signedInPage(options, async (request, reply, user) => {
      const { code } = request.params as { code: string };
      const detail = await dashboard.link(user.account, code);
      if (!detail) return notFound(reply, user, 'link');
      return sendPage(reply, 200, linkPage(frameOf(user), options.baseUrl, detail));
    }),
  );

  app.post(
    '/dashboard/links/:code/delete',
    signedInForm(options, async (request, reply, user) => {
      const { code } = request.params as { code: string };
      if (!(await dashboard.deleteLink(user.account, code))) return notFound(reply, user, 'link');
      return reply.redirect(backTo(field(request.body, 'back'), 'link-deleted'), 303);
    }),
  );

  app.post(
    '/dashboard/groups',
    signedInForm(options, async (request, reply, user) => {
      const change = await groups.create(
        user.account,
        field(request.body, 'name'),
        field(request.body, 'api_id'),
      );
      if (change.kind !== 'done') return groupRefused(request, reply, user, change);
      return reply.redirect('/dashboard?done=group-created#groups', 303);
    }),
  );

  app.post(
    '/dashboard/groups/:id',
    signedInForm(options, async (request, reply, user) => {
      const id = positiveInt((request.params as { id: string }).id);
      if (id === undefined) return notFound(reply, user, 'group');
      const change = await groups.rename(
        user.account,
        id,
        field(request.body, 'name'),
        field(request.body, 'api_id'),
      );
      if (change.kind !== 'done') return groupRefused(request, reply, user, change);
      return reply.redirect('/dashboard?done=group-renamed#groups', 303);
    }),
  );

  app.post(
    '/dashboard/groups/:id/delete',
    signedInForm(options, async (request, reply, user) => {
      const id = positiveInt((request.params as { id: string }).id);
      const change =
        id === undefined ? ({ kind: 'not-found' } as const) : await groups.delete(user.account, id);
      if (change.kind !== 'done') return groupRefused(request, reply, user, change);
      return reply.redirect('/dashboard?done=group-deleted#groups', 303);
    }),
  );
}
