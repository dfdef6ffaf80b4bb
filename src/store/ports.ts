import type { PlanSettings } from '../domain/plans.ts';

/**
 * The store's ports: what services need from persistence, named by intent.
 * Every adapter (SQLite and PostgreSQL) implements all of them and passes
 * the same contract suite in test/store/.
 */

export interface Plan {
  id: number;
  name: string;
  apiAccess: boolean;
  urlQuota: number;
  rateLimitPerHour: number;
}

/** A plan's settings, as the domain defines them (the default plans are of this shape). */
export type PlanInput = PlanSettings;

export interface Account {
  id: number;
  email: string;
  plan: Plan;
  /** scrypt hash in PHC-like text form, or null when the account cannot sign in. */
  passwordHash: string | null;
  createdAt: Date;
}

/** The account behind an API key, as resolved from the key's SHA-256 hash. */
export interface KeyOwner {
  keyId: number;
  /** SHA-256 of the key as stored, so the caller can compare in constant time. */
  hash: Buffer;
  prefix: string;
  revoked: boolean;
  accountId: number;
  plan: Plan;
}

export interface ApiKeyInfo {
  id: number;
  accountId: number;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface Group {
  id: number;
  accountId: number;
  name: string;
  /** lower-case slug, unique per account, never all digits (so it cannot be mistaken for an ID). */
  apiId: string;
  createdAt: Date;
}

export interface Link {
  id: number;
  code: string;
  accountId: number;
  groupId: number | null;
  longUrl: string;
  normalizedUrl: string;
  title: string;
  clicks: number;
  botHits: number;
  createdAt: Date;
}

export interface NewLink {
  code: string;
  accountId: number;
  groupId: number | null;
  longUrl: string;
  normalizedUrl: string;
  /** hex SHA-256 of normalizedUrl; unique per account among live links. */
  urlHash: string;
  title: string;
}

export type InsertLinkResult =
  | { kind: 'created'; link: Link }
  | { kind: 'duplicate'; existing: Link }
  | { kind: 'quota-exceeded' }
  | { kind: 'code-taken' };

export type GroupRef = { id: number } | { apiId: string };

/** Counts gathered in memory by the redirect and written in one batch. */
export interface ClickCount {
  linkId: number;
  /** UTC day, YYYY-MM-DD, for the daily history. */
  day: string;
  clicks: number;
  botHits: number;
}

export interface DailyClicks {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  clicks: number;
}

export interface LinkStore {
  findKeyByHash(hash: Buffer): Promise<KeyOwner | undefined>;
  findGroupOfAccount(accountId: number, ref: GroupRef): Promise<Group | undefined>;
  /** The account's live (not deleted) link to this normalized-URL hash, if any. */
  findLiveLinkByUrlHash(accountId: number, urlHash: string): Promise<Link | undefined>;
  countLiveLinks(accountId: number): Promise<number>;
  /**
   * Stores the link atomically: the duplicate rule (unique account + urlHash among live
   * links), the code's uniqueness (across all links ever, deleted included) and the plan's
   * quota are decided by the insert itself, never by a separate check.
   * Duplicate is reported before quota when both apply.
   */
  insertLinkWithinQuota(link: NewLink): Promise<InsertLinkResult>;
  /** A live link by its code; deleted links are not found. */
  findLinkByCode(code: string): Promise<Link | undefined>;
  /** Soft delete: the row (and so its code) stays forever. Returns false when not the owner's. */
  deleteLink(accountId: number, code: string): Promise<boolean>;
  /**
   * Adds a batch of buffered counts in one transaction: `clicks` and `bot_hits` on each link and
   * the human clicks to the link's daily history. Counts of deleted links are still recorded.
   */
  addClicks(batch: readonly ClickCount[]): Promise<void>;
  /** Human clicks per UTC day for one link, days without clicks omitted, oldest first. */
  dailyClicksOfLink(linkId: number, fromDay: string, toDay: string): Promise<DailyClicks[]>;
  /** Human clicks per UTC day over all links of an account, days without clicks omitted, oldest first. */
  dailyClicksOfAccount(accountId: number, fromDay: string, toDay: string): Promise<DailyClicks[]>;
  /**
   * Bulk path for seeding and imports: inserts many links of one account in large transactions and
   * raises the account's link_count by as many. Constraints still apply (a violation throws); the
   * quota is not checked.
   */
  insertLinksBulk(links: readonly NewLink[]): Promise<void>;
  /** The account's live links matching the query, newest first, one page of them. */
  listLinks(accountId: number, query: LinkQuery): Promise<LinkPage>;
  /** A live link by code, only if the account owns it. */
  findLinkOfAccount(accountId: number, code: string): Promise<Link | undefined>;
}

export interface LinkQuery {
  /** Only links of this group. */
  groupId?: number;
  /** Case-insensitive substring of the long URL or the title. */
  search?: string;
  limit: number;
  offset: number;
}

export interface LinkPage {
  /** Newest first. */
  links: Link[];
  /** Live links matching the query, over all pages. */
  total: number;
}

export type CreateAccountResult = { kind: 'created'; account: Account } | { kind: 'email-taken' };
export type CreateGroupResult = { kind: 'created'; group: Group } | { kind: 'api-id-taken' };

export interface AccountStore {
  /** Creates the plan, or updates the plan of that name. */
  upsertPlan(plan: PlanInput): Promise<Plan>;
  findPlanByName(name: string): Promise<Plan | undefined>;
  listPlans(): Promise<Plan[]>;
  /** Inserts the default plans only when no plan exists at all. */
  ensureDefaultPlans(plans: readonly PlanInput[]): Promise<void>;
  createAccount(email: string, planId: number, passwordHash: string | null): Promise<CreateAccountResult>;
  findAccountByEmail(email: string): Promise<Account | undefined>;
  findAccountById(id: number): Promise<Account | undefined>;
  setAccountPlan(accountId: number, planId: number): Promise<void>;
  /** Revokes every live key of the account and stores the new one, in one transaction. */
  replaceApiKey(accountId: number, prefix: string, hash: Buffer): Promise<ApiKeyInfo>;
  findLiveApiKey(accountId: number): Promise<ApiKeyInfo | undefined>;
  createGroup(accountId: number, name: string, apiId: string): Promise<CreateGroupResult>;
  listGroups(accountId: number): Promise<Group[]>;
  setPasswordHash(accountId: number, passwordHash: string): Promise<void>;
  /** Renames a group of the account and sets its API identifier. */
  renameGroup(accountId: number, groupId: number, name: string, apiId: string): Promise<RenameGroupResult>;
  /** Deletes a group of the account; its links stay, ungrouped. False when not the account's. */
  deleteGroup(accountId: number, groupId: number): Promise<boolean>;
}

export type RenameGroupResult = 'renamed' | 'not-found' | 'api-id-taken';

export interface SessionRecord {
  accountId: number;
  /** The session's CSRF token, embedded in every form of the session's pages. */
  csrfToken: string;
  expiresAt: Date;
}

/** Server-side sessions; the cookie holds a random id, the store only its SHA-256. */
export interface SessionStore {
  createSession(idHash: Buffer, session: SessionRecord): Promise<void>;
  /** The session if it exists and has not expired at `now`. */
  findSession(idHash: Buffer, now: Date): Promise<SessionRecord | undefined>;
  deleteSession(idHash: Buffer): Promise<void>;
  /** Ends every session of the account but the one given (after a password change). */
  deleteSessionsOfAccount(accountId: number, keepIdHash?: Buffer): Promise<void>;
  deleteExpiredSessions(now: Date): Promise<number>;
}

export interface Store extends LinkStore, AccountStore, SessionStore {
  /** Applies pending migrations; returns the names of those applied now. */
  migrate(): Promise<string[]>;
  /** Cheap round trip for readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
