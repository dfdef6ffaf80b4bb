import type { EventFilter, StatsRange, StatsScope, StoredStats } from '../analytics/model.ts';
import type { VisitBatch } from '../analytics/visit-batch.ts';
import type {
  ApiKeyInfo,
  ClickCount,
  DailyClicks,
  Group,
  GroupRef,
  KeyOwner,
  Link,
  LinkChange,
  NewKey,
  NewLink,
} from '../entities.ts';
import type { LinkPage, LinkQuery } from '../link-query.ts';
import type { AbTestStore } from './ab-test-store.ts';
import type { AbuseStore, AuditStore } from './abuse-store.ts';
import type { BillingStore } from './billing-store.ts';
import type { ConsoleStore } from './console-store.ts';
import type { ConversionStore } from './conversion-store.ts';
import type { DomainStore } from './domain-store.ts';
import type { HealthStore } from './health-store.ts';
import type { LinkCodeStore } from './link-code-store.ts';
import type { LinkExportStore } from './link-export-store.ts';
import type { AccountStore, InvitationStore, UserTokenStore, WorkspaceStore } from './people-store.ts';
import type { SessionStore } from './session-store.ts';
import type { TagStore, VisitListStore } from './tag-store.ts';
import type { LinkEventSink, WebhookStore } from './webhook-store.ts';

/** The store's ports, named by intent; both adapters implement each and pass test/adapters/contract. */

export type AddKeyResult = { kind: 'created'; key: ApiKeyInfo } | { kind: 'too-many' };

/** When keys were used (epoch ms of the latest use), gathered in memory and written in one batch. */
export interface KeyUse {
  keyId: number;
  at: number;
}

/** API keys, known only by their SHA-256 and a short prefix. */
export interface KeyStore {
  findKeyByHash(hash: Buffer): Promise<KeyOwner | undefined>;
  /** Revokes the workspace's live main key and stores a new one made by `createdBy`, in one transaction. */
  replaceMainKey(
    workspaceId: number,
    prefix: string,
    hash: Buffer,
    createdBy: number | null,
  ): Promise<ApiKeyInfo>;
  findMainKey(workspaceId: number): Promise<ApiKeyInfo | undefined>;
  /** The owner of the workspace's main key, as findKeyByHash gives it (a sign-in by password acting as the workspace, docs/api.md §15). */
  findMainKeyOwner(workspaceId: number): Promise<KeyOwner | undefined>;
  /** A further key with a name and scopes, unless the account already holds MAX_KEYS_PER_ACCOUNT. */
  addKey(workspaceId: number, key: NewKey): Promise<AddKeyResult>;
  /** The account's live keys, the main key first, then the newest. */
  listLiveKeys(workspaceId: number): Promise<ApiKeyInfo[]>;
  /** Revokes one of the account's further keys (never the main key); false when there is none such. */
  revokeKey(workspaceId: number, keyId: number): Promise<boolean>;
  /** Records the latest use of each key; an earlier time never overwrites a later one. */
  touchKeys(batch: readonly KeyUse[]): Promise<void>;
}

export type CreateGroupResult = { kind: 'created'; group: Group } | { kind: 'api-id-taken' };
export type RenameGroupResult = 'renamed' | 'not-found' | 'api-id-taken';

export interface GroupStore {
  findGroupOfWorkspace(workspaceId: number, ref: GroupRef): Promise<Group | undefined>;
  createGroup(workspaceId: number, name: string, apiId: string): Promise<CreateGroupResult>;
  listGroups(workspaceId: number): Promise<Group[]>;
  /** Renames a group of the account and sets its API identifier. */
  renameGroup(workspaceId: number, groupId: number, name: string, apiId: string): Promise<RenameGroupResult>;
  /** Deletes a group of the account; its links stay, ungrouped. False when not the account's. */
  deleteGroup(workspaceId: number, groupId: number): Promise<boolean>;
}

export type UpdateLinkResult =
  | { kind: 'updated'; link: Link }
  | { kind: 'not-found' }
  | { kind: 'duplicate'; existing: Link }
  | { kind: 'code-taken' };

/** A change, and maybe a new code on the same domain: the old one stays the link's alias (§18). */
export type LinkUpdate = LinkChange & { code?: string };

export type InsertLinkResult =
  | { kind: 'created'; link: Link }
  | { kind: 'duplicate'; existing: Link }
  | { kind: 'quota-exceeded' }
  | { kind: 'code-taken' };

/** Links; finding one by its code, or by a code a rename left it, is LinkCodeStore's (link-code-store.ts). */
export interface LinkStore extends LinkCodeStore {
  /** The account's live (not deleted) link on the domain to this normalized-URL hash, if any. */
  findLiveLinkByUrlHash(workspaceId: number, domainId: number, urlHash: string): Promise<Link | undefined>;
  countLiveLinks(workspaceId: number): Promise<number>;
  /**
   * Stores the link atomically: the duplicate rule (unique account + domain + urlHash among
   * live links), the code's uniqueness (per domain, across all links ever, deleted included) and the plan's
   * quota are decided by the insert itself, never by a separate check.
   * Duplicate is reported before quota when both apply.
   */
  insertLinkWithinQuota(link: NewLink, events?: LinkEventSink): Promise<InsertLinkResult>;
  /**
   * Takes one visit of a live link's limit in one conditional update (`limit_used < max_clicks`):
   * exact however many instances share the store. False when none is left or the link has no limit.
   */
  takeVisit(linkId: number): Promise<boolean>;
  /** Visits taken of a link's limit, as the store counts them. */
  visitsTaken(linkId: number): Promise<number>;
  /** Soft delete: the row (and so its code) stays forever. Returns false when not the owner's. */
  deleteLink(workspaceId: number, domainId: number, code: string, events?: LinkEventSink): Promise<boolean>;
  /**
   * Bulk path for seeding and imports: inserts many links of one account in large transactions and
   * raises the account's link_count by as many. Constraints still apply (a violation throws); the
   * quota is not checked.
   */
  insertLinksBulk(links: readonly NewLink[]): Promise<void>;
  /** The account's live links matching the query, newest first, one page of them. */
  listLinks(workspaceId: number, query: LinkQuery): Promise<LinkPage>;
  /** A live link by code, only if the account owns it. */
  findLinkOfWorkspace(workspaceId: number, domainId: number, code: string): Promise<Link | undefined>;
  /**
   * Changes a live link of the account in one transaction; a new target that another live link of
   * the account already has is a duplicate (the unique index decides), and nothing changes.
   */
  updateLink(
    workspaceId: number,
    domainId: number,
    code: string,
    change: LinkUpdate,
    events?: LinkEventSink,
  ): Promise<UpdateLinkResult>;
  /** The tags of each link, sorted; links without tags are absent from the map. */
  tagsOf(linkIds: readonly number[]): Promise<Map<number, string[]>>;
  /** How many live links each group of the account holds (groups without links are absent). */
  countLinksPerGroup(workspaceId: number): Promise<Map<number, number>>;
}

/** The redirect's counts and their daily history. */
export interface ClickStore {
  /**
   * Adds a batch of buffered counts in one transaction: `clicks` and `bot_hits` on each link, the
   * human clicks and bot hits to the link's and its account's daily history (unless the count has
   * no day: TRACKING=off), and what `visits` carries: raw events, their per-day breakdowns, new
   * unique visitors and bot kinds (docs/api.md §9), and the click events of webhooks (§14).
   * Counts of deleted links are still recorded.
   */
  addClicks(batch: readonly ClickCount[], visits?: VisitBatch): Promise<void>;
  /** Links one addClicks should carry at most, where larger flushes suit the store (docs/adr/053). */
  readonly clickLinksPerWrite?: number;
  /** Human clicks per UTC day for one link, days without clicks omitted, oldest first. */
  dailyClicksOfLink(linkId: number, fromDay: string, toDay: string): Promise<DailyClicks[]>;
  /** Human clicks per UTC day over all links of an account, days without clicks omitted, oldest first. */
  dailyClicksOfWorkspace(workspaceId: number, fromDay: string, toDay: string): Promise<DailyClicks[]>;
  /**
   * The account's live links with the most human clicks over the UTC days (both included), most
   * first, ties by the newest link; links without clicks on those days are left out.
   */
  topLinksOfWorkspace(
    workspaceId: number,
    fromDay: string,
    toDay: string,
    limit: number,
  ): Promise<LinkClicks[]>;
}

/** A link's human clicks over a range of days (the stats page's top links). */
export interface LinkClicks {
  linkId: number;
  domainId: number;
  code: string;
  title: string;
  clicks: number;
}

/** Visit analytics read back (docs/api.md §9.4) and raw events aged out. */
export interface StatsStore {
  /**
   * Totals, series and breakdowns of a link (deleted ones too) or an account over the range: daily
   * from the per-day aggregates, hourly from the hourly rollup, filtered or zoned from the raw events.
   */
  stats(scope: StatsScope, range: StatsRange, filter?: EventFilter): Promise<StoredStats>;
  /** Raw events older than `beforeMs` gone, PostgreSQL's day partitions made ahead of `nowMs` (ADR 042). */
  purgeEvents(beforeMs: number, nowMs?: number): Promise<number>;
}

/** Secrets every instance shares, made once by whichever starts first. */
export interface SecretStore {
  /** The named secret: the stored one, or `candidate`, stored now, when there is none yet. */
  secret(name: string, candidate: Buffer): Promise<Buffer>;
}

export type { LinkCsvAsk, LinkCsvPage, LinkExportStore } from './link-export-store.ts';
export type {
  AcceptInvitationResult,
  AccountStore,
  CreateAccountResult,
  CreateWorkspaceResult,
  EmailChangeResult,
  EmailChangeStore,
  InvitationStore,
  MemberChange,
  StoredTwoFactor,
  TokenPurpose,
  TwoFactorStore,
  UserTokenStore,
  WorkspaceStore,
} from './people-store.ts';
export type { SessionStore } from './session-store.ts';

/** The store as a service: its migrations, and the cheap round trip of readiness checks. */
export interface UpkeepStore {
  /** Applies pending migrations; returns the names of those applied now. */
  migrate(): Promise<string[]>;
  ping(): Promise<void>;
}

export interface Store
  extends AccountStore,
    WorkspaceStore,
    DomainStore,
    InvitationStore,
    UserTokenStore,
    KeyStore,
    GroupStore,
    LinkStore,
    LinkExportStore,
    ClickStore,
    StatsStore,
    SessionStore,
    SecretStore,
    AbuseStore,
    ConsoleStore,
    WebhookStore,
    AbTestStore,
    HealthStore,
    TagStore,
    VisitListStore,
    BillingStore,
    ConversionStore,
    UpkeepStore {
  close(): Promise<void>;
}

/**
 * The store by capability (docs/adr/034): a feature names the ports it uses and is handed those
 * alone, so what it may read and write is said in its descriptor and checked by the compiler.
 */
export interface Ports {
  accounts: AccountStore;
  workspaces: WorkspaceStore;
  domains: DomainStore;
  invitations: InvitationStore;
  tokens: UserTokenStore;
  keys: KeyStore;
  groups: GroupStore;
  links: LinkStore & LinkExportStore;
  clicks: ClickStore;
  stats: StatsStore;
  sessions: SessionStore;
  secrets: SecretStore;
  abuse: AbuseStore;
  console: ConsoleStore;
  /** The audit log alone (a part of `abuse`), for the features whose changes it records. */
  audit: AuditStore;
  webhooks: WebhookStore;
  abTests: AbTestStore;
  health: HealthStore;
  tags: TagStore;
  visitLists: VisitListStore;
  billing: BillingStore;
  conversions: ConversionStore;
  upkeep: UpkeepStore;
}

export type PortName = keyof Ports;

/** The asked ports of a store, and no other key: each is the store itself, seen through one port. */
export function portsOf<N extends PortName>(store: Store, names: readonly N[]): Pick<Ports, N> {
  const ports: Partial<Ports> = {};
  for (const name of names) ports[name] = store;
  return ports as Pick<Ports, N>;
}

type Intersection<U> = (U extends unknown ? (port: U) => void : never) extends (port: infer I) => void
  ? I
  : never;

/** Every port held, seen at once: what a function that takes several (`LinkStore & TagStore`) is given. */
export type Joined<P> = Intersection<P[keyof P]>;

/** The one store behind the ports held, typed as all of them together (and nothing else). */
export function joinPorts<P extends Partial<Ports>>(ports: P): Joined<P> {
  const [store, ...others] = new Set(Object.values(ports));
  // Every port is the same store; a second one would mean ports were made some other way.
  if (!store || others.length > 0) throw new Error('ports to join are one store, seen through each');
  return store as Joined<P>;
}
