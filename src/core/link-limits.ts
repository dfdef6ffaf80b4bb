import type { Link } from './entities.ts';

/** What a link's rules make of it at a moment (docs/api.md §8.2), for the redirect and the pages alike. */

/** Whether an expiry (epoch ms; null when the link never expires) has come: from that instant on, 410. */
export function hasExpired(expiresAtMs: number | null, nowMs: number): boolean {
  return expiresAtMs !== null && nowMs >= expiresAtMs;
}

/**
 * The visits a limited link has taken, as far as the store knows: `limit_used` counts from when the
 * limit was set, the human clicks from the start (flushed a second late); both are lower bounds.
 */
export function visitsTaken(link: Pick<Link, 'limitUsed' | 'clicks'>): number {
  return Math.max(link.limitUsed, link.clicks);
}
