import type { Link, User, Workspace } from '../../core/entities.ts';
import type { AuditEntry, Blocklist, Report } from '../../core/moderation.ts';

/** What the operator's commands and the audit API print (docs/api.md §13): snake_case, RFC 3339 UTC times. */

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

export const disabledJson = (link: Link) => ({
  disabled: link.disabled !== null,
  disabled_reason: link.disabled?.reason ?? null,
  disabled_at: iso(link.disabled?.at),
});

export const takedownLinkJson = (link: Link, shortUrl: string) => ({
  short_code: link.code,
  short_url: shortUrl,
  long_url: link.longUrl,
  ...disabledJson(link),
});

export const suspendedWorkspaceJson = (workspace: Workspace) => ({
  slug: workspace.slug,
  name: workspace.name,
  suspended: workspace.suspended !== null,
  suspended_reason: workspace.suspended?.reason ?? null,
  suspended_at: iso(workspace.suspended?.at),
});

export const moderatedUserJson = (user: User) => ({
  email: user.email,
  operator: user.operator,
  suspended: user.suspendedAt !== null,
  suspended_at: iso(user.suspendedAt),
});

export const blocklistJson = (list: Blocklist) => ({
  name: list.name,
  source: list.source,
  rules: list.ruleCount,
  skipped: list.skipped,
  updated_at: iso(list.updatedAt),
});

export const reportJson = (report: Report) => ({
  id: report.id,
  created_at: iso(report.createdAt),
  url: report.url,
  reason: report.reason,
  comment: report.comment,
  email: report.email,
  status: report.resolvedAt === null ? 'open' : 'resolved',
  resolution: report.resolution,
  resolved_at: iso(report.resolvedAt),
});

export const auditJson = (entry: AuditEntry, workspaceSlug?: string | null) => ({
  id: entry.id,
  at: iso(entry.at),
  actor: entry.actor,
  action: entry.action,
  target: entry.target,
  workspace: workspaceSlug ?? null,
  before: entry.before ?? null,
  after: entry.after ?? null,
});
