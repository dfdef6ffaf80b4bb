import type { HostRule } from '../blocklist-format.ts';
import type { Link, User, Workspace } from '../entities.ts';
import type { AuditEntry, Blocklist, NewAuditEntry, NewReport, Report, Resolution } from '../moderation.ts';
import type { LinkEventSink } from './webhook-store.ts';

/**
 * The store's ports for operators (docs/api.md §13): taking links, workspaces and users down and
 * finding them across every workspace; blocklists; reports; the audit log. Both adapters implement
 * them once, in adapters/sql/.
 */

/** How the operator's link search asks: a code on any domain, or normalized-URL prefixes (a host, a URL). */
export type LinkSearch = { code: string } | { urlPrefixes: readonly string[] };

/** An operator's deletion: done, nothing of that id, a personal workspace (delete its user), or the last owner of a team's. */
export type DeleteResult = 'deleted' | 'not-found' | 'personal' | 'last-owner';

export interface ModerationStore {
  /** Empties a team workspace for good: links deleted, keys revoked, members gone; it stays, suspended, so its address is never reused. */
  deleteWorkspace(id: number): Promise<DeleteResult>;
  /** Deletes a user: their personal workspace emptied, memberships, sessions and keys gone, the row kept without the email. */
  deleteUser(id: number): Promise<DeleteResult>;
  /** A live link by its id, whoever owns it. */
  findLinkById(id: number): Promise<Link | undefined>;
  /**
   * Disables a live link with a reason, or enables it (null); undefined when there is no such link.
   * Disabling writes its link.disabled event in the same transaction.
   */
  setLinkDisabled(id: number, reason: string | null, events?: LinkEventSink): Promise<Link | undefined>;
  /** Suspends a workspace with a reason, or resumes it (null). */
  setWorkspaceSuspended(id: number, reason: string | null): Promise<Workspace | undefined>;
  /** Grants or revokes the operator flag. */
  setUserOperator(id: number, operator: boolean): Promise<User | undefined>;
  /** Suspends a user (their sessions end) or resumes them. */
  setUserSuspended(id: number, suspended: boolean): Promise<User | undefined>;
  /** The ids of every suspended workspace (few: the redirect keeps them in memory). */
  suspendedWorkspaceIds(): Promise<number[]>;
  /** Live links across every workspace, at most `limit`: by code (newest first), or by URL prefix (in URL order). */
  searchLinks(search: LinkSearch, limit: number): Promise<Link[]>;
  /** Users whose email contains the text (all when empty), newest first. */
  searchUsers(text: string, limit: number): Promise<User[]>;
  /** Workspaces whose slug or name contains the text (all when empty), newest first. */
  searchWorkspaces(text: string, limit: number): Promise<Workspace[]>;
}

/** One rule as the store pages them out to the instances' in-memory sets. */
export interface StoredRule extends HostRule {
  id: number;
}

export interface BlocklistStore {
  /** The live lists, by name. */
  listBlocklists(): Promise<Blocklist[]>;
  /**
   * Replaces the rules of the list of that name (creating it) with these: written beside the live
   * ones in chunks, then swapped in one short transaction, so readers see the old rules or the new, never half.
   */
  replaceBlocklist(
    name: string,
    source: string | null,
    rules: readonly HostRule[],
    skipped: number,
  ): Promise<Blocklist>;
  /** Adds one rule to the list of that name (creating it); false when it holds that rule already. */
  addBlockRule(list: string, rule: HostRule): Promise<boolean>;
  /** Removes a host's rules from every list; how many went. */
  removeBlockRule(host: string): Promise<number>;
  /** Removes a whole list; false when there is none of that name. */
  deleteBlocklist(name: string): Promise<boolean>;
  /** Raised by every change of any list (rules) and every takedown: what instances poll. */
  abuseVersions(): Promise<{ rules: number; takedowns: number }>;
  /** The rules of every live list after the id, in id order. */
  blockRulesAfter(id: number, limit: number): Promise<StoredRule[]>;
  /** The lists holding a rule of exactly this host. */
  listsWithHost(host: string): Promise<string[]>;
}

export interface ReportStore {
  addReport(report: NewReport): Promise<Report>;
  findReport(id: number): Promise<Report | undefined>;
  /** Newest first; only the unresolved ones when `open`. */
  listReports(options: { open: boolean; limit: number }): Promise<Report[]>;
  /** Resolves an open report; a resolved one stays as it was (returned unchanged). */
  resolveReport(id: number, resolution: Resolution, by: number | null): Promise<Report | undefined>;
  /** Open reports, for the console's count. */
  countOpenReports(): Promise<number>;
}

export interface AuditStore {
  addAudit(entry: NewAuditEntry): Promise<void>;
  /** Newest first, before the id when given; one workspace's, or every entry (undefined). */
  listAudit(options: { workspaceId?: number; before?: number; limit: number }): Promise<AuditEntry[]>;
}

export type AbuseStore = ModerationStore & BlocklistStore & ReportStore & AuditStore;
