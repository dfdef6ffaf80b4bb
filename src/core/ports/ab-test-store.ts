import type { Link } from '../entities.ts';

/**
 * What the A/B tests' scheduler asks of the store (docs/api.md §20.x, docs/adr/046): the links
 * whose test has ended, each claimed by one caller at a time (a lease on the link's row, as the
 * webhook outbox leases its deliveries), and the clicks each variant had while the test ran.
 */
export interface AbTestStore {
  /**
   * Up to `limit` live links whose test ended by `now`, each held by this caller for `leaseMs`: a
   * second caller meanwhile gets none of them. Changing or removing the test frees the lease.
   */
  claimEndedTests(now: number, limit: number, leaseMs: number): Promise<Link[]>;
  /** Human clicks per variant (1-based) of a link from a UTC day (its number) on, as flushed. */
  variantClicks(linkId: number, fromDay: number): Promise<Map<number, number>>;
}
