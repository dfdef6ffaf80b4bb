import type { RateState } from '../core/errors.ts';

/** The RateLimit-* headers of an answer that spent a window (docs/api.md §2.5, §7.1). */
export function rateHeaders(rate: RateState | undefined): Record<string, string> {
  if (!rate) return {};
  return {
    'ratelimit-limit': String(rate.limit),
    'ratelimit-remaining': String(rate.remaining),
    'ratelimit-reset': String(rate.resetSeconds),
  };
}
