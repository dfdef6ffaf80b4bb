import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../../../core/entities.ts';
import { Refusal, UnavailableError } from '../../../core/errors.ts';
import { OWN_HOST_MESSAGE } from '../../../core/target-checks.ts';
import { urlFault, withAssumedScheme } from '../../../core/url-input.ts';
import { pageRefusal } from '../../../web/page-refusals.ts';
import { sendPage } from '../../../web/send-page.ts';
import {
  type InWorkspace,
  workspaceForm,
  workspaceFrame,
  workspacePage,
} from '../../../web/session/workspace-pages.ts';
import type { BulkItem, BulkOptions } from '../bulk-links.ts';
import { bulkPage } from './bulk-page.ts';
import type { DashboardRouteOptions } from './dashboard-view.ts';
import { linkRefusal } from './link-field-errors.ts';

/**
 * /w/<slug>/bulk: the page that creates many links, and the rows its script sends (JSON, at most
 * 100 a request, the session's CSRF token in `_csrf`), answered `{items}` as the API's bulk create
 * answers them: a link or a problem per index, each row checked and counted as one create.
 * /bulk/edit and /bulk/delete change or delete the links ticked on the dashboard the same way, with
 * the service behind PATCH and DELETE /api/v1/links/bulk (its checks, window and webhooks).
 */

export const BULK_BATCH = 100;
/** 100 rows of the longest URL, title and tags fit. */
const BULK_BODY_BYTES = 512 * 1024;
/** What a row may name; anything else a script sends is left out. */
const ROW_FIELDS = ['url', 'slug', 'group', 'title', 'tags', 'domain'] as const;
/** What the dashboard changes of many links at once: their group and their tags. */
const CHANGE_FIELDS = ['group', 'tags'] as const;

type Answer = { items: unknown[] } | { error: { code: string; message: string } };

function refuse(reply: FastifyReply, status: number, code: string, message: string) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .send({ error: { code, message } } satisfies Answer);
}

/** The rows of a request, each an object of the fields a row may name; undefined for a body that is not. */
function rowsOf(body: unknown): Record<string, unknown>[] | undefined {
  const items = (body as { items?: unknown } | null)?.items;
  if (!Array.isArray(items) || items.length === 0 || items.length > BULK_BATCH) return undefined;
  const rows: Record<string, unknown>[] = [];
  for (const item of items) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
    const row: Record<string, unknown> = {};
    for (const name of ROW_FIELDS) {
      const value = (item as Record<string, unknown>)[name];
      if (value !== undefined && value !== '') row[name] = value;
    }
    // Typed without a scheme, a URL whose rest is a host gets https:// (docs/api.md §18).
    if (typeof row.url === 'string') row.url = withAssumedScheme(row.url);
    rows.push(row);
  }
  return rows;
}

/** The codes of a bulk change or delete: 1 to 100 of them (each checked by the service); undefined if not. */
function codesOf(body: unknown): unknown[] | undefined {
  const codes = (body as { codes?: unknown } | null)?.codes;
  return Array.isArray(codes) && codes.length > 0 && codes.length <= BULK_BATCH ? codes : undefined;
}

/** The change of a bulk edit: a group and or tags, nothing else; undefined for any other body. */
function changeOf(body: unknown): Record<string, unknown> | undefined {
  const change = (body as { change?: unknown } | null)?.change;
  if (change === null || typeof change !== 'object' || Array.isArray(change)) return undefined;
  const names = Object.keys(change);
  if (names.length === 0 || names.some((name) => !(CHANGE_FIELDS as readonly string[]).includes(name))) {
    return undefined;
  }
  return change as Record<string, unknown>;
}

/** The domain the codes are on (absent: the default domain); null for one that is not a host's name. */
function domainOf(body: unknown): string | undefined | null {
  const domain = (body as { domain?: unknown } | null)?.domain;
  if (domain === undefined || domain === '') return undefined;
  return typeof domain === 'string' ? domain : null;
}

type BulkRun = (actor: Actor, options: BulkOptions) => Promise<BulkItem[]>;

/**
 * Each refused item said in plain words, as the create and edit forms say it; its code stays. A row
 * of a bulk create names its group in text (an ID, identifier or name), not by a choice that went
 * stale: its 312 keeps the service's sentence, which names what the row asked for. A 300 of a row
 * whose URL is of the wrong shape says why, as the create form does.
 */
function plainItems(items: readonly BulkItem[], rows?: readonly Record<string, unknown>[]): BulkItem[] {
  return items.map((item, index) => {
    if (!('error' in item) || (rows && item.error.code === '312')) return item;
    const url = rows?.[index]?.url;
    const fault = item.error.code === '300' && typeof url === 'string' ? urlFault(url) : undefined;
    const ownUrl = item.error.code === '305' && item.error.detail === OWN_HOST_MESSAGE;
    const said = linkRefusal({ code: item.error.code, message: item.error.detail, urlFault: fault, ownUrl });
    return said ? { ...item, error: { ...item.error, detail: said.error.message } } : item;
  });
}

/** Runs a bulk of the signed-in workspace, answered `{items}`; a refusal of the whole request as `{error}`. */
async function answer(
  options: DashboardRouteOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  user: InWorkspace,
  run: BulkRun,
  rows?: readonly Record<string, unknown>[],
) {
  try {
    const actor = await options.dashboard.actorOf(user.workspace);
    const items = await run(actor, {
      onFault: (error, index) => request.log.error({ err: error, index }, 'a bulk item failed'),
    });
    return reply
      .header('cache-control', 'no-store')
      .send({ items: plainItems(items, rows) } satisfies Answer);
  } catch (error) {
    if (error instanceof UnavailableError) {
      reply.header('retry-after', String(error.retryAfterSeconds));
      return refuse(
        reply,
        503,
        '503',
        'Snip cannot reach its storage right now. Try again in a few seconds.',
      );
    }
    if (!(error instanceof Refusal)) throw error;
    const { status, error: shown, retryAfterSeconds } = pageRefusal(error);
    if (retryAfterSeconds !== undefined) reply.header('retry-after', String(retryAfterSeconds));
    return refuse(reply, status, shown.code, shown.message);
  }
}

export async function bulkRoutes(app: FastifyInstance, options: DashboardRouteOptions): Promise<void> {
  const { dashboard } = options;

  app.get(
    '/w/:workspace/bulk',
    workspacePage(options, 'links:create', async (_request, reply, user) => {
      const [usage, groups] = await Promise.all([
        dashboard.usage(user.workspace),
        dashboard.groups(user.workspace),
      ]);
      const view = {
        frame: workspaceFrame(user),
        usage,
        groups,
        domains: options.domainChoices(user.workspace.id),
      };
      return sendPage(reply, 200, bulkPage(view));
    }),
  );

  app.post(
    '/w/:workspace/bulk',
    { bodyLimit: BULK_BODY_BYTES },
    workspaceForm(options, 'links:create', async (request, reply, user) => {
      const rows = rowsOf(request.body);
      if (!rows) {
        return refuse(reply, 400, '300', `Send {"items": [...]} of 1 to ${BULK_BATCH} rows, each an object.`);
      }
      return answer(
        options,
        request,
        reply,
        user,
        (actor, itemOptions) => options.bulk.create(actor, rows, request.ip, itemOptions),
        rows,
      );
    }),
  );

  app.post(
    '/w/:workspace/bulk/edit',
    { bodyLimit: BULK_BODY_BYTES },
    workspaceForm(options, 'links:write', async (request, reply, user) => {
      const [codes, change, domain] = [codesOf(request.body), changeOf(request.body), domainOf(request.body)];
      if (!codes || !change || domain === null) {
        const shape = `{"codes": [...], "change": {"group" and or "tags"}, "domain"?}`;
        return refuse(reply, 400, '300', `Send ${shape} with 1 to ${BULK_BATCH} codes.`);
      }
      return answer(options, request, reply, user, (actor, itemOptions) =>
        options.bulk.edit(actor, codes, change, domain, itemOptions),
      );
    }),
  );

  app.post(
    '/w/:workspace/bulk/delete',
    { bodyLimit: BULK_BODY_BYTES },
    workspaceForm(options, 'links:write', async (request, reply, user) => {
      const [codes, domain] = [codesOf(request.body), domainOf(request.body)];
      if (!codes || domain === null) {
        return refuse(reply, 400, '300', `Send {"codes": [...], "domain"?} with 1 to ${BULK_BATCH} codes.`);
      }
      return answer(options, request, reply, user, (actor, itemOptions) =>
        options.bulk.remove(actor, codes, domain, itemOptions),
      );
    }),
  );
}
