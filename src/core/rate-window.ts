import { HOUR_MS } from './days.ts';
import type { Actor } from './entities.ts';
import { type RateState, Refusal } from './errors.ts';
import type { Window, WindowCounter } from './ports/shared-state.ts';

/** Fixed rate-limit windows aligned to the epoch, so hourly windows start at the top of the UTC hour. */

export function windowAt(nowMs: number, lengthMs: number): Window {
  const start = nowMs - (nowMs % lengthMs);
  return { start, end: start + lengthMs };
}

/** Whole seconds until the window ends, never 0 while it is still running. */
export function secondsUntil(endMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((endMs - nowMs) / 1000));
}

/** A window one request spends: the counter's name, its limit and length. */
export interface RateWindow {
  /** Counter name; the part in braces is the Redis Cluster hash tag. */
  key: string;
  limit: number;
  lengthMs: number;
  spentMessage: string;
}

/**
 * The hourly window an account's requests spend (docs/api.md §7.1): one for all its keys, /create,
 * /api/v1 and the dashboard alike.
 */
export function workspaceRateWindow(actor: Pick<Actor, 'workspaceId' | 'plan'>): RateWindow {
  return {
    key: `rate:{account-${actor.workspaceId}}`,
    limit: actor.plan.rateLimitPerHour,
    lengthMs: HOUR_MS,
    spentMessage: 'The hourly request limit of this account is spent.',
  };
}

/** Spends one request of the window: its state after, or a 429 Refusal when it was already spent. */
export async function spendWindow(
  counter: WindowCounter,
  window: RateWindow,
  nowMs: number,
): Promise<RateState> {
  const span = windowAt(nowMs, window.lengthMs);
  const count = await counter.increment(window.key, span);
  const rate = {
    limit: window.limit,
    remaining: Math.max(0, window.limit - count),
    resetSeconds: secondsUntil(span.end, nowMs),
  };
  if (count > window.limit)
    throw new Refusal('429', window.spentMessage, { rate, retryAfterSeconds: rate.resetSeconds });
  return rate;
}
