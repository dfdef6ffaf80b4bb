import type { Link } from '../entities.ts';
import type { HealthStep } from '../link-health.ts';
import type { LinkEventSink } from './webhook-store.ts';

/**
 * What link health asks of the store (docs/api.md §21, docs/adr/048): links placed in the round,
 * claimed when due by one instance at a time (a lease on the link's row, as the A/B tests' end and
 * the webhook outbox), each check's outcome written with its event, and the reads of the console,
 * the digest mail and /metrics.
 */
export interface HealthStore {
  /**
   * Gives up to `limit` live links not yet in the round a time within the next `periodMs`, spread
   * evenly by their id; how many were placed.
   */
  placeLinksForChecks(now: number, periodMs: number, limit: number): Promise<number>;
  /** Up to `limit` live links due by `now`, earliest first, each held by this caller for `leaseMs`. */
  claimDueChecks(now: number, limit: number, leaseMs: number): Promise<Link[]>;
  /**
   * Writes a check of `link` (as it was read) and its next time, with `link.broken` or
   * `link.recovered` in the same transaction; the link as written, or undefined when it changed or
   * was checked since it was read (that check stands).
   */
  recordCheck(
    link: Link,
    step: HealthStep,
    nextAt: number,
    events?: LinkEventSink,
  ): Promise<Link | undefined>;
  /** Moves a claimed link to its next time without checking it (disabled or expired links). */
  skipCheck(linkId: number, nextAt: number): Promise<void>;
  /** Live broken links per workspace, for the operator's console: one query. */
  brokenLinksPerWorkspace(): Promise<Map<number, number>>;
  /** The earliest due time among live links still due at `now` (epoch ms); undefined when none is. */
  oldestDueCheck(now: number): Promise<number | undefined>;
  /** Workspaces with live links that broke after their last digest, and since when (epoch ms). */
  workspacesWithNewlyBroken(): Promise<Array<{ workspaceId: number; after: number }>>;
  /** The workspace's live links that broke after `after`, earliest first. */
  newlyBrokenLinks(workspaceId: number, after: number, limit: number): Promise<Link[]>;
  /**
   * Takes the workspace's digest of `day` (YYYY-MM-DD) covering changes up to `through`: false when
   * one was taken that day already (by this instance or another).
   */
  claimHealthDigest(workspaceId: number, day: string, through: number): Promise<boolean>;
  /** Whether the person gets the daily mail of newly broken links (on unless they turned it off). */
  healthMailOn(userId: number): Promise<boolean>;
  setHealthMail(userId: number, on: boolean): Promise<void>;
}
