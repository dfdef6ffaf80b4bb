import type { PlanSettings } from './entities.ts';

/** The plans a fresh store starts with (docs/api.md §6) when no plan exists yet. */
export const DEFAULT_PLANS: readonly PlanSettings[] = [
  { name: 'free', apiAccess: false, urlQuota: 100, rateLimitPerHour: 1000 },
  { name: 'pro', apiAccess: true, urlQuota: 10_000, rateLimitPerHour: 1000 },
];

export const DEFAULT_RATE_LIMIT_PER_HOUR = 1000;
export const DEFAULT_URL_QUOTA = 100;

export const PLAN_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,39}$/;

const EMAIL_PATTERN = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string): string | undefined {
  const normalized = email.trim().toLowerCase();
  return normalized.length <= 254 && EMAIL_PATTERN.test(normalized) ? normalized : undefined;
}
