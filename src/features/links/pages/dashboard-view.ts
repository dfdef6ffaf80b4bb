import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LinkPosition } from '../../../core/entities.ts';
import { positiveInt } from '../../../web/form-fields.ts';
import { messagePage } from '../../../web/message-page.ts';
import { sendPage } from '../../../web/send-page.ts';
import {
  type InWorkspace,
  type WorkspaceDeps,
  workspaceFrame,
} from '../../../web/session/workspace-pages.ts';
import type { AccountGroups } from '../../groups/index.ts';
import type { CreateLinkFor, LinkEditor } from '../link-requests.ts';
import type { DashboardService, LinkFilter } from './dashboard.ts';
import { type DashboardView, dashboardPage } from './dashboard-page.ts';

/** What the dashboard's routes share: their services, the filter of an address, and the page itself. */

export interface DashboardRouteOptions extends WorkspaceDeps {
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

/** Where to go back after a delete: the workspace's dashboard only (`base`, /w/<slug>), never anywhere else. */
export function backTo(base: string, raw: string, done: string): string {
  const url = new URL(raw.startsWith(base) ? raw : base, 'http://snip.invalid');
  if (url.origin !== 'http://snip.invalid' || url.pathname !== base) return `${base}?done=${done}`;
  url.searchParams.set('done', done);
  return `${url.pathname}${url.search}`;
}

export function dashboardRenderer(options: DashboardRouteOptions) {
  const { dashboard } = options;

  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    user: InWorkspace,
    status: number,
    extra: Partial<DashboardView> = {},
  ) {
    const query = request.query as Query;
    const filter = filterOf(query);
    const overview = await dashboard.overview(user.workspace, filter);
    const createdCode = typeof query.created === 'string' ? query.created : undefined;
    const created = createdCode ? await dashboard.ownLink(user.workspace, createdCode) : undefined;
    const done = typeof query.done === 'string' ? query.done : undefined;
    const view = {
      frame: workspaceFrame(user),
      baseUrl: options.baseUrl,
      overview,
      filter,
      created,
      done,
      ...extra,
    };
    return sendPage(reply, status, dashboardPage(view));
  }

  function notFound(reply: FastifyReply, user: InWorkspace, what: string) {
    const error = { code: 'not-found', message: `No ${what} of this workspace has that address.` };
    return sendPage(reply, 404, messagePage({ title: 'Not found', error, frame: workspaceFrame(user) }));
  }

  return { render, notFound };
}
