import type { Role } from './authorization.ts';
import type { LinkHealth } from './link-health.ts';
import type { LinkPreview } from './link-preview.ts';
import type { AbTest } from './link-variants.ts';
import type { Scope } from './scopes.ts';
import type { LinkRule } from './targeting.ts';

/**
 * What Snip is made of: plans, users and their workspaces, keys and groups, links and their counts
 * (a workspace owns links, keys and groups). Plain data; the rules that shape them live beside it.
 */

/** A plan's settings, as an operator sets them (the default plans are of this shape). */
export interface PlanSettings {
  name: string;
  apiAccess: boolean;
  urlQuota: number;
  rateLimitPerHour: number;
  /** What it costs a month, in minor units of an ISO 4217 currency; null (or absent): free (docs/api.md §17). */
  price?: PlanPrice | null;
  public?: boolean;
  /** What it includes, in a sentence or two. */
  description?: string;
  /** The Stripe price it sells as (`price_…`); null: not sold through Stripe. */
  stripePriceId?: string | null;
}

/** Minor units (cents) a month of an ISO 4217 currency, upper case. */
export interface PlanPrice {
  amount: number;
  currency: string;
}

export interface Plan extends PlanSettings {
  id: number;
}

/** A person who signs in: by password, by OIDC, or both. */
export interface User {
  id: number;
  email: string;
  /** scrypt hash in PHC-like text form, or null when the user has no password. */
  passwordHash: string | null;
  emailVerified: boolean;
  /** Runs this Snip (the operator console). */
  operator: boolean;
  /** Where /dashboard sends the user; null until they have opened one. */
  lastWorkspaceId: number | null;
  /** An operator suspended the user: they cannot sign in (docs/api.md §13). */
  suspendedAt: Date | null;
  /** Two-factor sign-in is on: a password sign-in asks for a code too (docs/api.md §22). */
  twoFactor: boolean;
  createdAt: Date;
}

/** What owns links, groups, keys and analytics, with one plan, quota and hourly window. */
export interface Workspace {
  id: number;
  /** Its address, /w/<slug>: lower-case letters, digits and hyphens. */
  slug: string;
  name: string;
  plan: Plan;
  /** The user whose personal workspace this is; null for a team's. */
  personalOf: number | null;
  defaultDomain: string | null;
  /** An operator suspended it: its links answer 410, its keys 303 (docs/api.md §13). */
  suspended: { at: Date; reason: string } | null;
  /** The IANA zone its pages enter and show dates in (core/time-zone.ts); `UTC` by default. */
  timezone: string;
  createdAt: Date;
}

/** A user with their personal workspace: what the operator's commands by email address. */
export interface Account {
  user: User;
  workspace: Workspace;
}

export interface Member {
  userId: number;
  email: string;
  role: Role;
  joinedAt: Date;
}

/** A short domain (§12): the default one (id 0), one shared with every workspace, or a workspace's own. */
export interface Domain {
  id: number;
  /** ASCII form (core/domain-host.ts); for the default domain, BASE_URL's host. */
  host: string;
  /** The workspace that added it; null for the default and shared domains. */
  workspaceId: number | null;
  shared: boolean;
  verifiedAt: Date | null;
  /** The value the TXT record `_snip-challenge.<host>` must hold. */
  verificationToken: string;
  /** Short URLs on it start with https:// (else http://). */
  https: boolean;
  /** Where `GET /` on the domain goes; null: the landing page (default domain) or 404. */
  rootRedirect: string | null;
  /** Where an unknown code on the domain goes; null: the 404 page. */
  notFoundRedirect: string | null;
  createdAt: Date;
}

/** A workspace a user belongs to, with their role in it. */
export interface MembershipOf {
  workspace: Workspace;
  role: Role;
}

/** An invitation as it is made: the token's SHA-256, never the token. */
export interface NewInvitation {
  workspaceId: number;
  email: string;
  role: Role;
  tokenHash: Buffer;
  invitedBy: number | null;
  expiresAt: Date;
}

export interface Invitation {
  id: number;
  workspaceId: number;
  email: string;
  role: Role;
  invitedBy: number | null;
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
}

/** The workspace behind an API key, as resolved from the key's SHA-256 hash. */
export interface KeyOwner {
  keyId: number;
  /** SHA-256 of the key as stored, so the caller can compare in constant time. */
  hash: Buffer;
  prefix: string;
  revoked: boolean;
  workspaceId: number;
  plan: Plan;
  scopes: readonly Scope[];
  /** Who made the key (null: the operator), and their role in the workspace now: it bounds the scopes. */
  userId: number | null;
  role: Role;
  /** The workspace, or the key's maker, is suspended by an operator: the key answers 303. */
  suspended: boolean;
}

/** Who acts when a link is created: the workspace, its plan, and the live key whose window it spends (0: none). */
export type Actor = Pick<KeyOwner, 'keyId' | 'workspaceId' | 'plan'>;

export interface ApiKeyInfo {
  id: number;
  workspaceId: number;
  /** "API Access" for the main key; the holder's own name for the others. */
  name: string;
  prefix: string;
  scopes: readonly Scope[];
  /** The key of API Access, which has every scope and is rotated rather than added. */
  main: boolean;
  /** The user who made it; null: the operator. */
  createdBy: number | null;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** A further key of an account, as it is asked for. */
export interface NewKey {
  /** The maker; null: the operator. */
  createdBy: number | null;
  name: string;
  scopes: readonly Scope[];
  prefix: string;
  hash: Buffer;
}

export interface Group {
  id: number;
  workspaceId: number;
  name: string;
  /** lower-case slug, unique per account, never all digits (so it cannot be mistaken for an ID). */
  apiId: string;
  createdAt: Date;
}

/** A group named by its numeric ID or its API identifier. */
export type GroupRef = { id: number } | { apiId: string };

export interface Link {
  id: number;
  code: string;
  /** The domain whose code space holds the code; 0: the default domain (core/link-key.ts). */
  domainId: number;
  workspaceId: number;
  groupId: number | null;
  longUrl: string;
  normalizedUrl: string;
  title: string;
  clicks: number;
  botHits: number;
  /** Visitors counted unique per UTC day on this link, summed over its days (docs/api.md §9.2). */
  uniqueVisitors: number;
  createdAt: Date;
  /** When the link last changed; its creation time until then. */
  updatedAt: Date;
  /** From this instant the link answers 410 Gone (docs/api.md §8.2). */
  expiresAt: Date | null;
  /** Human clicks after which the link answers 410. */
  maxClicks: number | null;
  /** Clicks taken against maxClicks by the store (without Redis); the link's clicks when the limit was set. */
  limitUsed: number;
  /** scrypt hash of the link's password; never shown. */
  passwordHash: string | null;
  /** Targeting rules, in order; [] when none. */
  rules: readonly LinkRule[];
  /** An operator disabled it for abuse: it answers 410 until an operator enables it (docs/api.md §13). */
  disabled: { at: Date; reason: string } | null;
  /** The short URL's own query is appended to the target at the redirect (docs/api.md §16). */
  forwardQuery: boolean;
  /** The card link previewers get instead of the redirect; null: they are redirected too. */
  preview: LinkPreview | null;
  /** Archived: off the default list, still redirecting and counting; the latest human click, null: none (§18). */
  archived: boolean;
  lastClickedAt: Date | null;
  /** Its stats page is shown to anyone at /<code>+ on its domain (§19); false when a new link leaves it out. */
  publicStats: boolean;
  /** Its A/B test (docs/api.md §20); null: none. */
  test: AbTest | null;
  /** Its targets as last checked again (docs/api.md §21). */
  health: LinkHealth;
}

/** The rules a link keeps besides its target (docs/api.md §8.2–8.3, §16), as stored. */
export interface LinkGuards {
  expiresAt?: Date | null;
  maxClicks?: number | null;
  passwordHash?: string | null;
  /** [] removes them. */
  rules?: readonly LinkRule[];
  /** The short URL's own query is appended to the target at the redirect. */
  forwardQuery?: boolean;
  /** null removes it. */
  preview?: LinkPreview | null;
  /** An A/B test, whole (docs/api.md §20); null removes it. */
  test?: AbTest | null;
}

export interface NewLink {
  code: string;
  domainId: number;
  workspaceId: number;
  groupId: number | null;
  longUrl: string;
  normalizedUrl: string;
  /** hex SHA-256 of normalizedUrl; unique per account among live links. */
  urlHash: string;
  title: string;
  tags?: readonly string[];
  guards?: LinkGuards;
  publicStats?: boolean;
}

/** What a change of a link sets; what it leaves out stays as it is. The code never changes. */
export interface LinkChange {
  target?: { longUrl: string; normalizedUrl: string; urlHash: string };
  title?: string;
  /** null takes the link out of its group. */
  groupId?: number | null;
  tags?: readonly string[];
  /** What is given of them changes; setting a limit where there was none starts it from the link's clicks. */
  guards?: LinkGuards;
  archived?: boolean;
  publicStats?: boolean;
}

/** Counts gathered in memory by the redirect and written in one batch. */
export interface ClickCount {
  linkId: number;
  /** UTC day, YYYY-MM-DD; null with TRACKING=off (the totals only). */
  day: string | null;
  clicks: number;
  botHits: number;
}

export interface DailyClicks {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  clicks: number;
}

/** The card a previewer shows (its own file; named here too, where it always was). */
export type { LinkPreview } from './link-preview.ts';
/** A signed-in session as stored (its own file; named here too, where it always was). */
export type { SessionRecord, SessionSummary } from './session-record.ts';
