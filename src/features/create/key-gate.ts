import { hashApiKey, sameHash } from '../../core/api-key.ts';
import type { KeyOwner } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import type { KeyStore } from '../../core/ports/store.ts';
import { accountRateWindow, type RateWindow } from '../../core/rate-window.ts';

/** Who may create links with a key and how fast: the one difference between /create and /demo/create. */
export interface KeyGate {
  /** The owner of a presented (trimmed, non-empty) key; a 303 Refusal otherwise. */
  identify(key: string): Promise<KeyOwner>;
  /** The window one request spends. */
  rateWindow(owner: KeyOwner, clientAddress: string): RateWindow;
}

/** Account keys (docs/api.md §2.5): looked up by SHA-256, compared in constant time, limited per clock hour. */
export function accountKeyGate(store: Pick<KeyStore, 'findKeyByHash'>): KeyGate {
  return {
    async identify(key) {
      const hash = hashApiKey(key);
      const owner = await store.findKeyByHash(hash);
      if (!owner || !sameHash(owner.hash, hash)) throw new Refusal('303');
      if (owner.revoked) throw new Refusal('303', 'This API key has been revoked.');
      if (!owner.plan.apiAccess) {
        throw new Refusal('303', 'The plan of this API key does not include API access.');
      }
      return owner;
    },
    rateWindow: accountRateWindow,
  };
}
