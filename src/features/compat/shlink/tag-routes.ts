import type { FastifyInstance } from 'fastify';
import { checkTags } from '../../../core/link-fields.ts';
import type { TagStat } from '../../../core/ports/tag-store.ts';
import type { CompatDeps } from '../compat-deps.ts';
import { keyNeed, shlinkCaller } from './shlink-auth.ts';
import { bodyText, type Fields, Invalid, queryList, queryText } from './shlink-input.ts';
import { lenientPage, pageOf } from './shlink-pages.ts';
import { tagConflict, tagNotFound } from './shlink-problems.ts';
import { bodyFields } from './short-url-fields.ts';
import { summaryOf } from './short-url-shape.ts';
import * as docs from './tag-docs.ts';

/**
 * Shlink's tags: the tags of the workspace's live links, with how many links carry each and their
 * visits; rename and delete act on every link of the workspace.
 */

/** Tags in a list at most; a workspace's tags are read whole, then paged. */
const TAGS_CAP = 10_000;

type TagOrder = (a: TagStat, b: TagStat) => number;

const ORDERS: Readonly<Record<string, TagOrder>> = {
  tag: (a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0),
  shortUrlsCount: (a, b) => a.links - b.links,
  visits: (a, b) => a.clicks + a.botHits - (b.clicks + b.botHits),
  nonBotVisits: (a, b) => a.clicks - b.clicks,
};

/** The tags asked for: searched, ordered (`field-ASC|DESC`, by name by default) and paged. */
async function tagsAsked(deps: CompatDeps, workspaceId: number, raw: Fields, fields: readonly string[]) {
  const invalid = new Invalid();
  const ask = lenientPage(raw, invalid, TAGS_CAP);
  const search = invalid.take('searchTerm', queryText(raw, 'searchTerm'));
  const orderBy = invalid.take('orderBy', queryText(raw, 'orderBy')) || 'tag-ASC';
  const dash = orderBy.lastIndexOf('-');
  const field = dash < 0 ? orderBy : orderBy.slice(0, dash);
  const direction = dash < 0 ? 'ASC' : orderBy.slice(dash + 1);
  const compare = fields.includes(field) ? ORDERS[field] : undefined;
  if (!compare || (direction !== 'ASC' && direction !== 'DESC')) invalid.note('orderBy');
  invalid.done();
  const stats = await deps.store.tagStats(workspaceId, search?.trim() || undefined);
  const byName = ORDERS.tag as TagOrder;
  const sign = direction === 'DESC' ? -1 : 1;
  stats.sort((a, b) => sign * ((compare as TagOrder)(a, b) || byName(a, b)));
  return pageOf(stats, ask);
}

export function tagRoutes(app: FastifyInstance, deps: CompatDeps): void {
  app.get(
    '/v3/tags',
    { config: keyNeed({ scope: 'links:read' }), schema: docs.LIST_TAGS },
    async (request) => {
      const { workspaceId } = shlinkCaller(request).actor;
      const page = await tagsAsked(deps, workspaceId, request.query as Fields, ['tag']);
      return { tags: { data: page.data.map((stat) => stat.tag), pagination: page.pagination } };
    },
  );

  app.get(
    '/v3/tags/stats',
    { config: keyNeed({ scope: 'links:read' }), schema: docs.TAG_STATS },
    async (request) => {
      const { workspaceId } = shlinkCaller(request).actor;
      const page = await tagsAsked(deps, workspaceId, request.query as Fields, Object.keys(ORDERS));
      const data = page.data.map((stat) => ({
        tag: stat.tag,
        shortUrlsCount: stat.links,
        visitsSummary: summaryOf(stat.clicks, stat.botHits),
      }));
      return { tags: { data, pagination: page.pagination } };
    },
  );

  const rename = keyNeed({ scope: 'links:write', tagOperation: 'rename' });
  app.put('/v3/tags', { config: rename, schema: docs.RENAME_TAG }, async (request, reply) => {
    const { workspaceId } = shlinkCaller(request).actor;
    const body = bodyFields(request.body) ?? {};
    const invalid = new Invalid();
    const oldName = invalid.take('oldName', bodyText(body, 'oldName'));
    // Stored as Snip stores a tag it is given: trimmed, in Unicode's composed form.
    const newName = invalid.take('newName', bodyText(body, 'newName'))?.trim().normalize('NFC');
    if (!oldName) invalid.note('oldName');
    if (!newName || !validTag(newName)) invalid.note('newName');
    invalid.done();
    const result = await deps.store.renameTag(workspaceId, oldName as string, newName as string);
    if (result === 'missing') throw tagNotFound(oldName as string);
    if (result === 'taken') throw tagConflict(oldName as string, newName as string);
    return reply.code(204).send();
  });

  const remove = keyNeed({ scope: 'links:write', tagOperation: 'delete' });
  app.delete('/v3/tags', { config: remove, schema: docs.DELETE_TAGS }, async (request, reply) => {
    const { workspaceId } = shlinkCaller(request).actor;
    const invalid = new Invalid();
    const tags = invalid.take('tags', queryList(request.query as Fields, 'tags')) ?? [];
    invalid.done();
    await deps.store.deleteTags(workspaceId, tags);
    return reply.code(204).send();
  });
}

/** A new tag name passes Snip's own check of tags. */
function validTag(name: string): boolean {
  try {
    checkTags([name]);
    return true;
  } catch {
    return false;
  }
}
