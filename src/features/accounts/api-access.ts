import { issueApiKey } from '../../core/api-key.ts';
import type { Account, ApiKeyInfo } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import type { KeyStore } from '../../core/ports/store.ts';
import { MAX_KEYS_PER_ACCOUNT, type Scope } from '../../core/scopes.ts';

/** A new key for the account, revoking its old one at once; the key itself is returned, never stored. */
export async function issueAccountKey(
  store: Pick<KeyStore, 'replaceMainKey'>,
  accountId: number,
): Promise<string> {
  const issued = issueApiKey();
  await store.replaceMainKey(accountId, issued.prefix, issued.hash);
  return issued.key;
}

/** Characters of a further key's name. */
export const MAX_KEY_NAME = 60;

/**
 * The API Access section of Account Settings (docs/api.md §7.1): the main key's prefix and its
 * rotation, and the further keys an account names and scopes itself, each shown once.
 */
export function apiAccess(store: Pick<KeyStore, 'replaceMainKey' | 'listLiveKeys' | 'addKey' | 'revokeKey'>) {
  const requireAccess = (account: Account) => {
    if (!account.plan.apiAccess) throw new Refusal('no-api-access', 'Your plan does not include API access.');
  };

  return {
    /** Every live key, the main key first; none without API access. */
    async keys(account: Account): Promise<ApiKeyInfo[]> {
      return account.plan.apiAccess ? store.listLiveKeys(account.id) : [];
    },

    /** A new key; the old one stops working at once. Only plans with API access get keys shown. */
    async rotate(account: Account): Promise<string> {
      requireAccess(account);
      return issueAccountKey(store, account.id);
    },

    /** A further key with a name and scopes; the key itself is returned, to be shown once. */
    async add(account: Account, name: string, scopes: readonly Scope[]): Promise<string> {
      requireAccess(account);
      const trimmed = name.trim();
      if (trimmed === '' || [...trimmed].length > MAX_KEY_NAME) throw new Refusal('key-name-invalid');
      if (scopes.length === 0) throw new Refusal('scopes-required');
      const issued = issueApiKey();
      const result = await store.addKey(account.id, {
        name: trimmed,
        scopes,
        prefix: issued.prefix,
        hash: issued.hash,
      });
      if (result.kind === 'too-many') {
        throw new Refusal(
          'too-many-keys',
          `An account holds at most ${MAX_KEYS_PER_ACCOUNT} keys; revoke one first.`,
        );
      }
      return issued.key;
    },

    /** Revokes a further key of the account; the main key is rotated instead. */
    async revoke(account: Account, keyId: number): Promise<void> {
      if (!(await store.revokeKey(account.id, keyId))) {
        throw new Refusal('not-found', 'This account has no further key with that ID.');
      }
    },
  };
}

export type ApiAccess = ReturnType<typeof apiAccess>;
