import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LinkPosition } from '../../../core/entities.ts';
import { positiveInt } from '../../../web/form-fields.ts';
import { messagePage } from '../../../web/message-page.ts';
import { sendPage } from '../../../web/send-page.ts';
import { frameOf } from '../../../web/session/handlers.ts';
import type { SessionDeps, SignedIn } from '../../../web/session/session-cookie.ts';
import type { AccountGroups } from '../../groups/index.ts';
import type { CreateLinkFor, LinkEditor } from '../link-requests.ts';
import type { DashboardService, LinkFilter } from './dashboard.ts';
import { type DashboardView, dashboardPage } from './dashboard-page.ts';

/** What the dashboard's routes share: their services, the filter of an address, and the page itself. */

export interface DashboardRouteOptions extends SessionDeps {
  dashboard: DashboardService;
  groups: AccountGroups;
  /** Creating a link with every check of /create, for the signed-in account. */
  createLinkFor: CreateLinkFor;
  editor: LinkEditor;
  baseUrl: URL;
}

export type Query = Record<string, unknown>;
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
export function backTo(raw: string, done: string): string {
  const url = new URL(raw.startsWith('/dashboard') ? raw : '/dashboard', 'http://snip.invalid');
  if (url.origin !== 'http://snip.invalid' || url.pathname !== '/dashboard') return `/dashboard?done=${done}`;
  url.searchParams.set('done', done);
  return `${url.pathname}${url.search}`;
}

export function dashboardRenderer(options: DashboardRouteOptions) {
  const { dashboard } = options;

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

  return { render, notFound };
}
