import type { Domain } from '../entities.ts';

/** A domain as it is added: by an operator (shared, or for a workspace) or by a workspace's admin. */
export interface NewDomain {
  host: string;
  workspaceId: number | null;
  shared: boolean;
  verificationToken: string;
  /** Added already verified (an operator's shared domain). */
  verified: boolean;
}

/**
 * What bounds a workspace's unverified domains (its claims on hosts) as one is added: a claim
 * holds a host for no one, several workspaces may claim the same host, and the first to verify it
 * wins.
 */
export interface ClaimLimits {
  /** When the domain is added. */
  at: Date;
  /** Claims made before this have expired: they count no more and block nothing. */
  expiredBefore: Date;
  /** The unverified domains a workspace may hold at once. */
  max: number;
}

/**
 * `dropped`: the other workspaces' claims on the host, removed because it is now served (a shared
 * domain added verified, or a claim verified), each as it was.
 */
export type AddDomainResult =
  | { kind: 'added'; domain: Domain; dropped: Domain[] }
  | { kind: 'taken' }
  | { kind: 'too-many-pending' };

export type VerifyDomainResult =
  | { kind: 'verified'; domain: Domain; dropped: Domain[] }
  /** Another domain of that host is verified. */
  | { kind: 'taken' }
  | { kind: 'not-found' };

/** What a change of a domain sets; what it leaves out stays. */
export interface DomainChange {
  https?: boolean;
  rootRedirect?: string | null;
  notFoundRedirect?: string | null;
  /** Set when its record was found (or an operator vouched for it). */
  verifiedAt?: Date;
}

export type RemoveDomainResult = 'removed' | 'has-links' | 'not-found';

/** Domains and the workspaces' choice among them (docs/api.md §12). */
export interface DomainStore {
  /** Every domain not removed, the default one (id 0, host '') first. */
  listDomains(): Promise<Domain[]>;
  /**
   * Adds a domain: a workspace's claim (taken while that workspace claims the host already or the
   * host is verified; too-many-pending past `limits.max`), or one added verified, which takes back
   * the host's code space (docs/api.md §12) and drops every claim on the host. Without `limits`,
   * now and no cap.
   */
  addDomain(domain: NewDomain, limits?: ClaimLimits): Promise<AddDomainResult>;
  /**
   * Verifies a claim, in one transaction: the host's code space is taken back if it had one (a
   * removed domain of that host keeps its id, so its codes stay issued) and the other workspaces'
   * claims on the host are dropped. Verified already: the domain as it is, nothing dropped.
   */
  verifyDomain(id: number, at: Date): Promise<VerifyDomainResult>;
  /** Deletes claims made before `expiredBefore` and claims removed, none with links; how many went. */
  purgeExpiredClaims(expiredBefore: Date): Promise<number>;
  /** Changes a domain not removed; undefined when there is none of that id. */
  updateDomain(id: number, change: DomainChange): Promise<Domain | undefined>;
  /**
   * Removes a domain without live links; its row stays while deleted links hold codes on it. The
   * workspaces that chose it as their default fall back to the default domain.
   */
  removeDomain(id: number): Promise<RemoveDomainResult>;
  /** The workspace's live links on each domain (domains without are absent); null: every workspace's. */
  countLinksPerDomain(workspaceId: number | null): Promise<Map<number, number>>;
  /** Each workspace that chose a default domain of its own, and its host. */
  listDefaultDomains(): Promise<Array<{ workspaceId: number; host: string }>>;
  /** The domain a workspace's links go on when they name none; null: the default domain. */
  setDefaultDomain(workspaceId: number, host: string | null): Promise<void>;
}
