import type { Actor } from './entities.ts';

/** Fixed rate-limit windows aligned to the epoch, so hourly windows start at the top of the UTC hour. */

export const HOUR_MS = 3_600_000;

export interface Window {
  /** Epoch ms at which the window started; together with a key it names the counter. */
  start: number;
  end: number;
}

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

/** The hourly window an account's requests spend: its live key's, shared by the API and the dashboard. */
export function accountRateWindow(actor: Actor): RateWindow {
  return {
    key: actor.keyId > 0 ? `rate:{key-${actor.keyId}}` : `rate:{account-${actor.accountId}}`,
    limit: actor.plan.rateLimitPerHour,
    lengthMs: HOUR_MS,
    spentMessage: 'The hourly request limit of this API key is spent.',
  };
}
