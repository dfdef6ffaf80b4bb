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

export type AddDomainResult = { kind: 'added'; domain: Domain } | { kind: 'taken' };

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
  /** Adds a domain, or takes back a removed one of that host (its codes stay issued). */
  addDomain(domain: NewDomain): Promise<AddDomainResult>;
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
