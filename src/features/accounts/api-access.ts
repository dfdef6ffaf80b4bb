import { issueApiKey } from '../../core/api-key.ts';
import type { Account, ApiKeyInfo } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import type { KeyStore } from '../../core/ports/store.ts';

/** A new key for the account, revoking its old one at once; the key itself is returned, never stored. */
export async function issueAccountKey(
  store: Pick<KeyStore, 'replaceApiKey'>,
  accountId: number,
): Promise<string> {
  const issued = issueApiKey();
  await store.replaceApiKey(accountId, issued.prefix, issued.hash);
  return issued.key;
}

/** The API Access section of Account Settings: the live key's prefix, and rotation. */
export function apiAccess(store: Pick<KeyStore, 'findLiveApiKey' | 'replaceApiKey'>) {
  return {
    /** The live key of an account whose plan has API access; undefined otherwise (or when it has none). */
    async liveKey(account: Account): Promise<ApiKeyInfo | undefined> {
      return account.plan.apiAccess ? store.findLiveApiKey(account.id) : undefined;
    },

    /** A new key; the old one stops working at once. Only plans with API access get keys shown. */
    async rotate(account: Account): Promise<string> {
      if (!account.plan.apiAccess)
        throw new Refusal('no-api-access', 'Your plan does not include API access.');
      return issueAccountKey(store, account.id);
    },
  };
}

export type ApiAccess = ReturnType<typeof apiAccess>;
