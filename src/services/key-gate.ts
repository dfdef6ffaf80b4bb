import { hashApiKey, sameHash } from '../domain/api-key.ts';
import { ApiError } from '../domain/errors.ts';
import { HOUR_MS } from '../domain/rate-window.ts';
import type { AccountStore, KeyOwner, LinkStore } from '../store/ports.ts';

/** Who may create links and how fast: the one difference between /create and /demo/create's checks. */
export interface KeyGate {
  /** The owner of a presented (trimmed, non-empty) key, or the 303 to answer. */
  identify(key: string): Promise<KeyOwner | ApiError>;
  /** The window one request spends. */
  rateWindow(owner: KeyOwner, clientAddress: string): RateWindow;
}

export interface RateWindow {
  /** Counter name; the part in braces is the Redis Cluster hash tag. */
  key: string;
  limit: number;
  lengthMs: number;
  spentMessage: string;
}

/** Account keys (SPEC.md 2.5): looked up by SHA-256, compared in constant time, limited per key and clock hour. */
export function accountKeyGate(store: Pick<LinkStore, 'findKeyByHash'>): KeyGate {
  return {
    async identify(key) {
      const hash = hashApiKey(key);
      const owner = await store.findKeyByHash(hash);
      if (!owner || !sameHash(owner.hash, hash)) return new ApiError('303');
      if (owner.revoked) return new ApiError('303', 'This API key has been revoked.');
      if (!owner.plan.apiAccess)
        return new ApiError('303', 'The plan of this API key does not include API access.');
      return owner;
    },
    rateWindow: accountRateWindow,
  };
}

/** The hourly window an account's requests spend: its live key's, shared by the API and the dashboard. */
export function accountRateWindow(owner: Pick<KeyOwner, 'keyId' | 'accountId' | 'plan'>): RateWindow {
  return {
    key: owner.keyId > 0 ? `rate:{key-${owner.keyId}}` : `rate:{account-${owner.accountId}}`,
    limit: owner.plan.rateLimitPerHour,
    lengthMs: HOUR_MS,
    spentMessage: 'The hourly request limit of this API key is spent.',
  };
}

/**
 * Signed-in account holders creating links from the dashboard: the "key" is the id of the session's
 * account, passed by the route, never read from a request. The account acts through its live key's
 * owner, so the checks and the hourly window are those of /create; a plan without API access may still
 * create links here (API access is about keys).
 */
export function sessionKeyGate(store: Pick<AccountStore, 'findAccountById' | 'findLiveApiKey'>): KeyGate {
  return {
    async identify(accountId) {
      const account = /^\d{1,15}$/.test(accountId)
        ? await store.findAccountById(Number(accountId))
        : undefined;
      if (!account) return new ApiError('303', 'The session has no account.');
      const key = await store.findLiveApiKey(account.id);
      return {
        keyId: key?.id ?? 0,
        hash: Buffer.alloc(0),
        prefix: key?.prefix ?? '',
        revoked: false,
        accountId: account.id,
        plan: account.plan,
      };
    },
    rateWindow: accountRateWindow,
  };
}
