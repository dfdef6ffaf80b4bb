/** Operators' takedowns and search, reports and the audit log on either dialect (adapters/sql/script.ts). */
import type { Link, User, Workspace } from '../../core/entities.ts';
import {
  type AuditEntry,
  isReportReason,
  isResolution,
  type NewAuditEntry,
  type NewReport,
  type Report,
  type Resolution,
} from '../../core/moderation.ts';
import type { AuditStore, LinkSearch, ModerationStore, ReportStore } from '../../core/ports/abuse-store.ts';
import { toUser, toWorkspace, USER_COLUMNS, WORKSPACE_COLUMNS, WORKSPACE_FROM } from './people-rows.ts';
import { containsPattern, dateOrNull, LINK_COLUMNS, mapFirst, type Row, toLink } from './rows.ts';
import { q, rowsOf, type Script, type ScriptRunner } from './script.ts';
import { bumpTakedowns, setLinkDisabled } from './takedown-scripts.ts';

function* setWorkspaceSuspended(
  id: number,
  reason: string | null,
  now: number,
): Script<Workspace | undefined> {
  if (reason === null)
    yield q('UPDATE workspaces SET suspended_at = NULL, suspended_reason = NULL WHERE id = ?', id);
  else {
    yield q(
      `UPDATE workspaces SET suspended_at = coalesce(suspended_at, ?),
         suspended_reason = coalesce(suspended_reason, ?) WHERE id = ?`,
      now,
      reason,
      id,
    );
  }
  yield bumpTakedowns();
  return mapFirst(
    yield q(`SELECT ${WORKSPACE_COLUMNS} FROM ${WORKSPACE_FROM} WHERE w.id = ?`, id),
    toWorkspace,
  );
}

function* setUserSuspended(id: number, suspended: boolean, now: number): Script<User | undefined> {
  if (suspended) {
    yield q('UPDATE users SET suspended_at = coalesce(suspended_at, ?) WHERE id = ?', now, id);
    // A suspended user is signed out everywhere at once.
    yield q('DELETE FROM sessions WHERE user_id = ?', id);
  } else yield q('UPDATE users SET suspended_at = NULL WHERE id = ?', id);
  yield bumpTakedowns();
  return mapFirst(yield q(`SELECT ${USER_COLUMNS} FROM users u WHERE u.id = ?`, id), toUser);
}

/** The first string after `prefix` in byte order: the end of the range of strings starting with it. */
export function prefixEnd(prefix: string): string {
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

/**
 * By code: the code index on any domain. By prefix: one range scan of the normalized-URL index per
 * prefix (in byte order: COLLATE "C" on PostgreSQL, SQLite's default), each limited, then merged.
 */
function* searchLinks(search: LinkSearch, limit: number, collate: string): Script<Link[]> {
  if ('code' in search) {
    const rows = yield q(
      `SELECT ${LINK_COLUMNS} FROM links WHERE code = ? AND deleted_at IS NULL ORDER BY id DESC LIMIT ?`,
      search.code,
      limit,
    );
    return rows.map(toLink);
  }
  const found: Link[] = [];
  for (const prefix of search.urlPrefixes) {
    if (prefix === '') continue;
    const rows = yield q(
      `SELECT ${LINK_COLUMNS} FROM links
       WHERE normalized_url${collate} >= ? AND normalized_url${collate} < ? AND deleted_at IS NULL
       ORDER BY normalized_url${collate} LIMIT ?`,
      prefix,
      prefixEnd(prefix),
      limit,
    );
    found.push(...rows.map(toLink));
  }
  const unique = [...new Map(found.map((link) => [link.id, link])).values()];
  return unique.sort((a, b) => (a.normalizedUrl < b.normalizedUrl ? -1 : 1)).slice(0, limit);
}

function* searchUsers(text: string, limit: number): Script<User[]> {
  const rows = yield q(
    `SELECT ${USER_COLUMNS} FROM users u WHERE u.email LIKE ? ESCAPE '\\' ORDER BY u.id DESC LIMIT ?`,
    containsPattern(text),
    limit,
  );
  return rows.map(toUser);
}

function* searchWorkspaces(text: string, limit: number): Script<Workspace[]> {
  const pattern = containsPattern(text);
  const rows = yield q(
    `SELECT ${WORKSPACE_COLUMNS} FROM ${WORKSPACE_FROM}
     WHERE w.slug LIKE ? ESCAPE '\\' OR lower(w.name) LIKE ? ESCAPE '\\' ORDER BY w.id DESC LIMIT ?`,
    pattern,
    pattern,
    limit,
  );
  return rows.map(toWorkspace);
}

export function moderationStore(
  { read, write }: ScriptRunner,
  collate: string,
): Omit<ModerationStore, 'deleteWorkspace' | 'deleteUser'> {
  return {
    findLinkById: async (id) =>
      mapFirst(
        await read(rowsOf(`SELECT ${LINK_COLUMNS} FROM links WHERE id = ? AND deleted_at IS NULL`, id)),
        toLink,
      ),
    setLinkDisabled: (id, reason, events) => write(setLinkDisabled(id, reason, Date.now(), events)),
    setWorkspaceSuspended: (id, reason) => write(setWorkspaceSuspended(id, reason, Date.now())),
    setUserOperator: (id, operator) =>
      write(
        (function* () {
          yield q(`UPDATE users SET operator = ${operator ? 'true' : 'false'} WHERE id = ?`, id);
          return mapFirst(yield q(`SELECT ${USER_COLUMNS} FROM users u WHERE u.id = ?`, id), toUser);
        })(),
      ),
    setUserSuspended: (id, suspended) => write(setUserSuspended(id, suspended, Date.now())),
    suspendedWorkspaceIds: async () =>
      (await read(rowsOf('SELECT id FROM workspaces WHERE suspended_at IS NOT NULL'))).map((row) =>
        Number(row.id),
      ),
    searchLinks: (search, limit) => read(searchLinks(search, limit, collate)),
    searchUsers: (text, limit) => read(searchUsers(text, limit)),
    searchWorkspaces: (text, limit) => read(searchWorkspaces(text, limit)),
  };
}

const REPORT_COLUMNS =
  'id, created_at, url, link_id, reason, comment, email, resolved_at, resolution, resolved_by';

function toReport(row: Row): Report {
  const reason = isReportReason(row.reason) ? row.reason : 'other';
  return {
    id: Number(row.id),
    createdAt: new Date(Number(row.created_at)),
    url: row.url as string,
    linkId: Number(row.link_id),
    reason,
    comment: row.comment as string,
    email: (row.email as string | null) ?? null,
    resolvedAt: dateOrNull(row.resolved_at),
    resolution: isResolution(row.resolution) ? row.resolution : null,
    resolvedBy: row.resolved_by === null || row.resolved_by === undefined ? null : Number(row.resolved_by),
  };
}

function* addReport(report: NewReport, now: number): Script<Report> {
  const rows = yield q(
    `INSERT INTO reports (created_at, url, link_id, reason, comment, email) VALUES (?, ?, ?, ?, ?, ?)
     RETURNING ${REPORT_COLUMNS}`,
    now,
    report.url,
    report.linkId,
    report.reason,
    report.comment,
    report.email,
  );
  const added = mapFirst(rows, toReport);
  if (!added) throw new Error('a report insert returned no row');
  return added;
}

function* resolveReport(
  id: number,
  resolution: Resolution,
  by: number | null,
  now: number,
): Script<Report | undefined> {
  yield q(
    'UPDATE reports SET resolved_at = ?, resolution = ?, resolved_by = ? WHERE id = ? AND resolved_at IS NULL',
    now,
    resolution,
    by,
    id,
  );
  return mapFirst(yield q(`SELECT ${REPORT_COLUMNS} FROM reports WHERE id = ?`, id), toReport);
}

function* listReports(open: boolean, limit: number): Script<Report[]> {
  const where = open ? 'WHERE resolved_at IS NULL' : '';
  const rows = yield q(`SELECT ${REPORT_COLUMNS} FROM reports ${where} ORDER BY id DESC LIMIT ?`, limit);
  return rows.map(toReport);
}

export function reportStore({ read, write }: ScriptRunner): ReportStore {
  return {
    addReport: (report) => write(addReport(report, Date.now())),
    findReport: async (id) =>
      mapFirst(await read(rowsOf(`SELECT ${REPORT_COLUMNS} FROM reports WHERE id = ?`, id)), toReport),
    listReports: ({ open, limit }) => read(listReports(open, limit)),
    resolveReport: (id, resolution, by) => write(resolveReport(id, resolution, by, Date.now())),
    countOpenReports: async () =>
      Number((await read(rowsOf('SELECT count(*) AS n FROM reports WHERE resolved_at IS NULL')))[0]?.n ?? 0),
  };
}

const AUDIT_COLUMNS = 'id, at, actor_id, actor, workspace_id, action, target, before_value, after_value';

const jsonOrNull = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'string' ? (JSON.parse(value) as Record<string, unknown>) : null;

function toAudit(row: Row): AuditEntry {
  return {
    id: Number(row.id),
    at: new Date(Number(row.at)),
    actorId: row.actor_id === null ? null : Number(row.actor_id),
    actor: row.actor as string,
    workspaceId: row.workspace_id === null ? null : Number(row.workspace_id),
    action: row.action as string,
    target: row.target as string,
    before: jsonOrNull(row.before_value),
    after: jsonOrNull(row.after_value),
  };
}

function* addAudit(entry: NewAuditEntry, now: number): Script<void> {
  yield q(
    `INSERT INTO audit_log (at, actor_id, actor, workspace_id, action, target, before_value, after_value)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    now,
    entry.actorId,
    entry.actor,
    entry.workspaceId,
    entry.action,
    entry.target,
    entry.before ? JSON.stringify(entry.before) : null,
    entry.after ? JSON.stringify(entry.after) : null,
  );
}

function* listAudit(
  workspaceId: number | undefined,
  before: number | undefined,
  limit: number,
): Script<AuditEntry[]> {
  const where: string[] = [];
  const params: number[] = [];
  if (workspaceId !== undefined) {
    where.push('workspace_id = ?');
    params.push(workspaceId);
  }
  if (before !== undefined) {
    where.push('id < ?');
    params.push(before);
  }
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const rows = yield q(
    `SELECT ${AUDIT_COLUMNS} FROM audit_log ${clause} ORDER BY id DESC LIMIT ?`,
    ...params,
    limit,
  );
  return rows.map(toAudit);
}

export function auditStore({ read, write }: ScriptRunner): AuditStore {
  return {
    addAudit: (entry) => write(addAudit(entry, Date.now())),
    listAudit: ({ workspaceId, before, limit }) => read(listAudit(workspaceId, before, limit)),
  };
}
