import { DAY_MS } from '../../core/days.ts';
import type { DisablePolicy } from '../../core/ports/webhook-store.ts';

/**
 * When a failed delivery is tried again (docs/api.md §14): the first retry WEBHOOK_RETRY_BASE_MS
 * after the first attempt, each next one twice as late, with up to a tenth more at random so that
 * deliveries failed together do not return together. Fourteen retries span base × (2^14 − 1): about
 * 22.8 h with the default 5 s, so the last comes about a day after the event; a smaller base runs
 * the same schedule in seconds.
 */
export const MAX_ATTEMPTS = 15;

/** The default base, against which the day of the schedule and of disabling is measured. */
const DEFAULT_BASE_MS = 5000;

/** When to try again after `attempts` attempts failed, or null to give up. */
export function retryAt(attempts: number, now: number, baseMs: number, random = Math.random): number | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  const delay = baseMs * 2 ** (attempts - 1);
  return Math.round(now + delay * (1 + random() / 10));
}

/**
 * An endpoint is disabled after a day of failures (the day scaled as the schedule is, so a test's
 * small base shortens it too) or 1,000 failed attempts in a row.
 */
export function disablePolicy(baseMs: number): DisablePolicy {
  return { failingForMs: Math.round((DAY_MS * baseMs) / DEFAULT_BASE_MS), failuresInRow: 1000 };
}
