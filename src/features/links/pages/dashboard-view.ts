import type { FastifyReply, FastifyRequest } from 'fastify';
import { MAX_TAG_LENGTH } from '../../../core/link-fields.ts';
import { DEFAULT_DOMAIN_ID } from '../../../core/link-key.ts';
import { type LinkOrder, type LinkPosition, linkFind } from '../../../core/link-query.ts';
import type { LinkOrigins } from '../../../core/short-url.ts';
import { positiveInt } from '../../../web/form-fields.ts';
import { messagePage } from '../../../web/message-page.ts';
import { sendPage } from '../../../web/send-page.ts';
import {
  type InWorkspace,
  type WorkspaceDeps,
  workspaceFrame,
} from '../../../web/session/workspace-pages.ts';
import type { WorkspaceGroups } from '../../groups/index.ts';
import type { BulkLinks } from '../bulk-links.ts';
import type { CreateLinkFor, LinkEditor } from '../link-requests.ts';
import type { DashboardService, LinkFilter } from './dashboard.ts';
import type { DomainChoices } from './dashboard-page.ts';
import { type DashboardView, dashboardPage } from './dashboard-page.ts';
import { PREVIEW_CARD_POLICY } from './preview-card.ts';

/** What the dashboard's routes share: their services, the filter of an address, and the page itself. */

export interface DashboardRouteOptions extends WorkspaceDeps {
  dashboard: DashboardService;
  groups: WorkspaceGroups;
  /** Creating a link with every check of /create, for the signed-in account. */
  createLinkFor: CreateLinkFor;
  /** Many links at once: the bulk create's rows (docs/api.md §16). */
  bulk: BulkLinks;
  editor: LinkEditor;
  origins: LinkOrigins;
  /** The domain `?domain=` names for the workspace (317 for one it does not see). */
  domainOf: (workspaceId: number, host: string | undefined) => number;
  /** The hosts the workspace's new links may go on, and the one they go on unless told. */
  domainChoices: (workspaceId: number) => DomainChoices;
}

/** The domain of a link's page: `?domain=`, the default domain without it; undefined for one not the workspace's. */
export function pageDomain(
  options: DashboardRouteOptions,
  workspaceId: number,
  query: unknown,
): number | undefined {
  const host = (query as Query | undefined)?.domain;
  if (typeof host !== 'string' || host === '') return DEFAULT_DOMAIN_ID;
  try {
    return options.domainOf(workspaceId, host);
  } catch {
    return undefined;
  }
}

export type Query = Record<string, unknown>;
const MAX_SEARCH = 200;

const SORTS: readonly LinkOrder[] = ['created', 'clicks', 'last_click', 'title'];
const STATES = ['active', 'archived', 'expired', 'disabled', 'broken', 'all'] as const;
const MAX_TAGS = 20;

/**
 * A page position in an address: `<value>.<id>`, the value digits (a time or clicks) or, sorted by
 * title, the title itself; anything else is no position (the first page).
 */
function position(raw: unknown, order: LinkOrder): LinkPosition | undefined {
  if (typeof raw !== 'string') return undefined;
  if (order === 'title') {
    const match = /^([\s\S]{0,2048})\.(\d{1,15})$/.exec(raw);
    return match ? { value: match[1] ?? '', id: Number(match[2]) } : undefined;
  }
  const match = /^(\d{1,15})\.(\d{1,15})$/.exec(raw);
  return match ? { value: Number(match[1]), id: Number(match[2]) } : undefined;
}

const oneOf = <T extends string>(values: readonly T[], raw: unknown): T | undefined =>
  values.find((value) => value === raw);

/** Every value of a parameter given once or repeated. */
const valuesOf = (raw: unknown): unknown[] => (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]);

/**
 * The list an address asks for: the API's parameters (docs/api.md §18), each unknown value taken as
 * its default (a page never refuses an address); `order=clicks`, the older address of the clicks
 * sort, still sorts by clicks. `domainOf` is the workspace's domain of a host, undefined for another.
 */
export function filterOf(
  query: Query,
  domainOf: (host: string) => number | undefined = () => undefined,
): LinkFilter {
  const tags = [
    ...new Set(
      valuesOf(query.tag)
        .filter((tag): tag is string => typeof tag === 'string')
        .map((tag) => tag.trim().slice(0, MAX_TAG_LENGTH))
        .filter((tag) => tag !== ''),
    ),
  ].slice(0, MAX_TAGS);
  const search = typeof query.q === 'string' ? query.q.trim().slice(0, MAX_SEARCH) : '';
  const host = typeof query.domain === 'string' ? query.domain.trim().slice(0, 253) : '';
  const order = oneOf(SORTS, query.sort) ?? (query.order === 'clicks' ? 'clicks' : 'created');
  const state = oneOf(STATES, query.state);
  const find = linkFind(search, domainOf);
  return {
    search,
    ...(find ? { find } : {}),
    groupId: positiveInt(query.group),
    ...(tags[0] === undefined ? {} : { tag: tags[0], tags }),
    ...(host === '' ? {} : { domain: { host, id: domainOf(host) ?? -1 } }),
    ...(state ? { state } : {}),
    order,
    ...(query.order === 'asc' ? { ascending: true } : {}),
    after: position(query.after, order),
    before: position(query.before, order),
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
    const filter = filterOf(query, (host) => {
      try {
        return options.domainOf(user.workspace.id, host);
      } catch {
        return undefined;
      }
    });
    const overview = await dashboard.overview(user.workspace, filter);
    const createdCode = typeof query.created === 'string' ? query.created : undefined;
    const createdOn = pageDomain(options, user.workspace.id, { domain: query.created_domain });
    const created =
      createdCode && createdOn !== undefined
        ? await dashboard.ownLink(user.workspace, createdOn, createdCode)
        : undefined;
    const done = typeof query.done === 'string' ? query.done : undefined;
    const copy = extra.draft ? undefined : await duplicateOf(user, query);
    const view = {
      frame: workspaceFrame(user),
      origins: options.origins,
      domains: options.domainChoices(user.workspace.id),
      overview,
      filter,
      created,
      done,
      ...copy,
      ...extra,
    };
    // The create form's preview card shows the image typed in, from wherever it is.
    reply.header('content-security-policy', PREVIEW_CARD_POLICY);
    return sendPage(reply, status, dashboardPage(view));
  }

  /**
   * `?duplicate=<code>` (and `duplicate_domain=<host>` off the default domain): the create form
   * filled in with the link's target, title, tags and group, on another of the workspace's domains
   * when it has one (the same target on the same domain is refused as already shortened). An
   * unknown code fills in nothing.
   */
  async function duplicateOf(user: InWorkspace, query: Query): Promise<Partial<DashboardView>> {
    const code = typeof query.duplicate === 'string' ? query.duplicate.trim().slice(0, 200) : '';
    const domainId = pageDomain(options, user.workspace.id, { domain: query.duplicate_domain });
    if (code === '' || domainId === undefined) return {};
    const original = await dashboard.original(user.workspace, domainId, code);
    if (!original) return {};
    const { link, tags } = original;
    const { hosts, chosen } = options.domainChoices(user.workspace.id);
    const own = options.origins.hostOf(link.domainId);
    const domain = hosts.length < 2 ? '' : (hosts.find((host) => host !== own) ?? chosen);
    const draft = {
      url: link.longUrl,
      title: link.title,
      tags: tags.join(', '),
      group: link.groupId === null ? '' : String(link.groupId),
      slug: '',
      domain,
    };
    return { draft, copyOf: link };
  }

  function notFound(reply: FastifyReply, user: InWorkspace, what: string) {
    const error = { code: 'not-found', message: `No ${what} of this workspace has that address.` };
    return sendPage(reply, 404, messagePage({ title: 'Not found', error, frame: workspaceFrame(user) }));
  }

  return { render, notFound };
}
