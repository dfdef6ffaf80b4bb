/** Tags as things of their own, and raw visits one by one, on either dialect (core/ports/tag-store.ts). */
import type {
  RenameTagResult,
  StoredVisit,
  TagStore,
  VisitListStore,
  VisitQuery,
} from '../../core/ports/tag-store.ts';
import { containsPattern, type Row } from './rows.ts';
import { lockWorkspace, type Param, q, type Script, type ScriptRunner } from './script.ts';

const OF_ACCOUNT = 'link_id IN (SELECT id FROM links WHERE workspace_id = ?)';

function* tagStats(workspaceId: number, search: string | undefined): Script<Row[]> {
  const pattern = search?.trim() ? containsPattern(search.trim()) : undefined;
  return yield q(
    `SELECT t.tag, COUNT(*) AS links, SUM(l.clicks) AS clicks, SUM(l.bot_hits) AS bot_hits
     FROM link_tags t JOIN links l ON l.id = t.link_id
     WHERE l.workspace_id = ? AND l.deleted_at IS NULL${pattern ? " AND lower(t.tag) LIKE ? ESCAPE '\\'" : ''}
     GROUP BY t.tag ORDER BY t.tag`,
    ...(pattern ? [workspaceId, pattern] : [workspaceId]),
  );
}

const hasTag = (workspaceId: number, tag: string) =>
  q(`SELECT 1 AS found FROM link_tags WHERE tag = ? AND ${OF_ACCOUNT} LIMIT 1`, tag, workspaceId);

function* renameTag(workspaceId: number, from: string, to: string): Script<RenameTagResult> {
  yield lockWorkspace(workspaceId);
  if ((yield hasTag(workspaceId, from)).length === 0) return 'missing';
  if (from === to) return 'renamed';
  if ((yield hasTag(workspaceId, to)).length > 0) return 'taken';
  yield q(`UPDATE link_tags SET tag = ? WHERE tag = ? AND ${OF_ACCOUNT}`, to, from, workspaceId);
  return 'renamed';
}

function* deleteTags(workspaceId: number, tags: readonly string[]): Script<number> {
  if (tags.length === 0) return 0;
  const rows = yield q(
    `DELETE FROM link_tags WHERE tag IN (${tags.map(() => '?').join(', ')}) AND ${OF_ACCOUNT} RETURNING link_id`,
    ...tags,
    workspaceId,
  );
  return new Set(rows.map((row) => Number(row.link_id))).size;
}

const VISIT_COLUMNS =
  'e.link_id, l.code, l.domain_id, e.at, e.referrer, e.country, e.device, e.os, e.browser, e.language, e.source';

/** The conditions of a visit query; each reads one range of click_events_link_at or _account_at. */
function visitFilter(workspaceId: number, query: VisitQuery): { where: string; params: Param[] } {
  const conditions = ['workspace_id = ?'];
  const params: Param[] = [workspaceId];
  if (query.linkId !== undefined) {
    conditions.push('link_id = ?');
    params.push(query.linkId);
  }
  if (query.tag !== undefined) {
    conditions.push(
      'link_id IN (SELECT t.link_id FROM link_tags t JOIN links l ON l.id = t.link_id WHERE l.workspace_id = ? AND t.tag = ?)',
    );
    params.push(workspaceId, query.tag);
  }
  if (query.domainId !== undefined) {
    conditions.push('link_id IN (SELECT id FROM links WHERE workspace_id = ? AND domain_id = ?)');
    params.push(workspaceId, query.domainId);
  }
  if (query.from !== undefined) {
    conditions.push('at >= ?');
    params.push(query.from);
  }
  if (query.to !== undefined) {
    conditions.push('at <= ?');
    params.push(query.to);
  }
  return { where: conditions.join(' AND '), params };
}

const toVisit = (row: Row): StoredVisit => ({
  linkId: Number(row.link_id),
  code: String(row.code),
  domainId: Number(row.domain_id),
  at: Number(row.at),
  referrer: String(row.referrer),
  country: String(row.country),
  device: String(row.device),
  os: String(row.os),
  browser: String(row.browser),
  language: String(row.language),
  source: String(row.source),
});

function* listVisits(
  workspaceId: number,
  query: VisitQuery,
): Script<{ visits: StoredVisit[]; total: number }> {
  const { where, params } = visitFilter(workspaceId, query);
  const [counted] = yield q(`SELECT COUNT(*) AS n FROM click_events WHERE ${where}`, ...params);
  const rows = yield q(
    `SELECT ${VISIT_COLUMNS} FROM (SELECT * FROM click_events WHERE ${where} ORDER BY at DESC LIMIT ? OFFSET ?) e
     JOIN links l ON l.id = e.link_id ORDER BY e.at DESC`,
    ...params,
    Math.max(0, Math.floor(query.limit)),
    Math.max(0, Math.floor(query.offset)),
  );
  return { visits: rows.map(toVisit), total: Number(counted?.n ?? 0) };
}

export function tagStore(runner: ScriptRunner): TagStore & VisitListStore {
  return {
    async tagStats(workspaceId, search) {
      const rows = await runner.read(tagStats(workspaceId, search));
      return rows.map((row) => ({
        tag: String(row.tag),
        links: Number(row.links),
        clicks: Number(row.clicks ?? 0),
        botHits: Number(row.bot_hits ?? 0),
      }));
    },
    renameTag: (workspaceId, from, to) => runner.write(renameTag(workspaceId, from, to)),
    deleteTags: (workspaceId, tags) => runner.write(deleteTags(workspaceId, [...new Set(tags)])),
    listVisits: (workspaceId, query) => runner.read(listVisits(workspaceId, query)),
  };
}
