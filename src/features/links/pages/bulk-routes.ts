import type { FastifyInstance, FastifyReply } from 'fastify';
import { Refusal, UnavailableError } from '../../../core/errors.ts';
import { pageRefusal } from '../../../web/page-refusals.ts';
import { sendPage } from '../../../web/send-page.ts';
import { workspaceForm, workspaceFrame, workspacePage } from '../../../web/session/workspace-pages.ts';
import { bulkPage } from './bulk-page.ts';
import type { DashboardRouteOptions } from './dashboard-view.ts';

/**
 * /w/<slug>/bulk: the page that creates many links, and the rows its script sends (JSON, at most
 * 100 a request, the session's CSRF token in `_csrf`), answered `{items}` as the API's bulk create
 * answers them: a link or a problem per index, each row checked and counted as one create.
 */

export const BULK_BATCH = 100;
/** 100 rows of the longest URL, title and tags fit. */
const BULK_BODY_BYTES = 512 * 1024;
/** What a row may name; anything else a script sends is left out. */
const ROW_FIELDS = ['url', 'slug', 'group', 'title', 'tags', 'domain'] as const;

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
    rows.push(row);
  }
  return rows;
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
      try {
        const actor = await dashboard.actorOf(user.workspace);
        const items = await options.bulk.create(actor, rows, request.ip, {
          onFault: (error, index) => request.log.error({ err: error, index }, 'a bulk row failed'),
        });
        return reply.header('cache-control', 'no-store').send({ items } satisfies Answer);
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
    }),
  );
}
