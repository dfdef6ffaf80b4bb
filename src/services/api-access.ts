import type { Account, ApiKeyInfo, Store } from '../store/ports.ts';
import { issueAccountKey } from './manage-accounts.ts';

/** The API Access section of Account Settings: the live key's prefix, and rotation. */

export type Rotation = { kind: 'rotated'; apiKey: string } | { kind: 'no-api-access' };

export function apiAccess(store: Pick<Store, 'findLiveApiKey' | 'replaceApiKey'>) {
  return {
    /** The live key of an account whose plan has API access; undefined otherwise (or when it has none). */
    async liveKey(account: Account): Promise<ApiKeyInfo | undefined> {
      return account.plan.apiAccess ? store.findLiveApiKey(account.id) : undefined;
    },

    /** A new key; the old one stops working at once. Only plans with API access get keys shown. */
    async rotate(account: Account): Promise<Rotation> {
      if (!account.plan.apiAccess) return { kind: 'no-api-access' };
      return { kind: 'rotated', apiKey: await issueAccountKey(store, account.id) };
    },
  };
}

export type ApiAccess = ReturnType<typeof apiAccess>;
