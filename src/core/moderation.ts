/**
 * What operators keep Snip safe with (docs/api.md §13): visitors' reports and how each was resolved,
 * host blocklists, and the audit log of operator and workspace-admin actions. Plain data.
 */

export const REPORT_REASONS = ['phishing', 'malware', 'spam', 'illegal', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** How an operator resolves a report: disable the link, suspend its workspace, block its host, or dismiss it. */
export const RESOLUTIONS = ['disable', 'suspend', 'block', 'dismiss'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/** A report's comment is at most this long (characters); longer is refused. */
export const REPORT_COMMENT_MAX = 2000;

export const isReportReason = (value: unknown): value is ReportReason =>
  typeof value === 'string' && (REPORT_REASONS as readonly string[]).includes(value);

export const isResolution = (value: unknown): value is Resolution =>
  typeof value === 'string' && (RESOLUTIONS as readonly string[]).includes(value);

export interface NewReport {
  url: string;
  /** The link the short URL named when the report was made. */
  linkId: number;
  reason: ReportReason;
  comment: string;
  email: string | null;
}

export interface Report extends NewReport {
  id: number;
  createdAt: Date;
  resolvedAt: Date | null;
  resolution: Resolution | null;
  /** The operator who resolved it; null: the command line. */
  resolvedBy: number | null;
}

/** A named set of host rules: imported from a file, refreshed from an address, or added by hand ("manual"). */
export interface Blocklist {
  id: number;
  name: string;
  /** The address it is refreshed from (BLOCKLIST_URLS); null: a file or by hand. */
  source: string | null;
  ruleCount: number;
  /** Lines of its last import that were not rules. */
  skipped: number;
  createdAt: Date;
  updatedAt: Date;
}

/** The list rules added one by one (`snip blocklist add`, /admin) go to. */
export const MANUAL_BLOCKLIST = 'manual';

/** One action of an operator or a workspace admin, as the audit log keeps it. */
export interface NewAuditEntry {
  /** The user who acted; null: the operator's command line. */
  actorId: number | null;
  /** Their email then, or "cli". */
  actor: string;
  /** The workspace concerned; null: the instance as a whole. */
  workspaceId: number | null;
  /** What was done, "<noun>.<verb>": link.disable, member.role, key.create, … */
  action: string;
  /** What it was done to, as a person reads it: a code, an email, a host, a slug. */
  target: string;
  /** What changed, before and after; never a secret. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

export interface AuditEntry extends NewAuditEntry {
  id: number;
  at: Date;
}

/** The actor of the operator's command line. */
export const CLI_ACTOR = { actorId: null, actor: 'cli' } as const;

/**
 * Writes one entry of the audit log, after the action it records succeeded. It never fails the
 * action: a log that cannot be written is told elsewhere (the server's log, the command's stderr).
 */
export type RecordAudit = (entry: NewAuditEntry) => Promise<void>;

/** Records nothing: what a service records with when no audit log is wired to it. */
export const NO_AUDIT: RecordAudit = async () => {};
