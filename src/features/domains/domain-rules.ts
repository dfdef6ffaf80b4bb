import { typedDomainHost } from '../../core/domain-host.ts';
import type { Domain, Workspace } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import { DEFAULT_DOMAIN_ID } from '../../core/link-key.ts';
import type { RecordAudit } from '../../core/moderation.ts';
import type { DomainStore } from '../../core/ports/domain-store.ts';
import type { TxtResolver } from '../../core/ports/txt-resolver.ts';
import { CLAIM_TTL_MS, type DomainRegistry } from './domain-registry.ts';

/** What the domains service runs on, and the rules its reads and changes share (docs/api.md §12). */

/** The TXT record a workspace creates to prove the domain is theirs. */
export const CHALLENGE_LABEL = '_snip-challenge';

export { CLAIM_TTL_MS } from './domain-registry.ts';

/** The store's bound at `now`: a claim made before it (at or before now − CLAIM_TTL_MS) has lapsed. */
export const lapsedBefore = (now: number): Date => new Date(now - CLAIM_TTL_MS + 1);

export type { TxtResolver } from '../../core/ports/txt-resolver.ts';

/** A domain as a workspace sees it, with its live links there. */
export interface DomainView {
  domain: Domain;
  /** The workspace's own (it may change and remove it). */
  own: boolean;
  links: number;
}

export interface DomainsDeps {
  store: DomainStore;
  registry: DomainRegistry;
  resolveTxt: TxtResolver;
  /** Tells the other instances that the domains changed (they reload theirs). */
  announce: () => Promise<void>;
  /** The audit log every change is recorded in; none by default. */
  audit?: RecordAudit;
  /** The unverified domains a workspace may hold at once (DOMAINS_PENDING_MAX). */
  pendingMax: number;
  /** Tells a workspace that its claim on a host was dropped (another verified it first). */
  claimDropped?: (claim: Domain) => Promise<void>;
  now: () => number;
}

/** Who acts on domains: a workspace (its admins, by the API or the pages), or the operator (null). */
export type DomainActor = Workspace | null;

const URL_MAX_LENGTH = 2048;

/** A root or not-found redirect: an absolute http(s) URL, or null to clear it. */
export function redirectTarget(value: unknown): string | null {
  if (value === null) return null;
  if (typeof value !== 'string' || value.length === 0 || value.length > URL_MAX_LENGTH) {
    throw new Refusal('300', 'A redirect is an absolute http or https URL, or null.');
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Refusal('300', 'A redirect is an absolute http or https URL, or null.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Refusal('300', 'A redirect is an absolute http or https URL, or null.');
  }
  return url.href;
}

/**
 * A host as typed (or pasted as `https://host/`), in its stored form; a name that cannot be a
 * domain is 300.
 */
export function hostFrom(value: unknown): string {
  if (typeof value !== 'string') throw new Refusal('300', 'A domain is a host name, such as go.example.com.');
  const checked = typedDomainHost(value);
  if (!checked.ok) {
    throw new Refusal(
      '300',
      `"${value.slice(0, 80)}" is not a host name a domain can have (${checked.reason}).`,
    );
  }
  return checked.host;
}

export const usable = (domain: Domain, workspaceId: number): boolean =>
  domain.verifiedAt !== null &&
  (domain.id === DEFAULT_DOMAIN_ID || domain.shared || domain.workspaceId === workspaceId);

export const visible = (domain: Domain, workspaceId: number): boolean =>
  domain.id === DEFAULT_DOMAIN_ID ||
  (domain.shared && domain.verifiedAt !== null) ||
  domain.workspaceId === workspaceId;
