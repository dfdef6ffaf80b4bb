import { hashApiKey, sameHash } from './api-key.ts';
import { may } from './authorization.ts';
import { clientKey } from './client-key.ts';
import type { KeyOwner } from './entities.ts';
import { Refusal } from './errors.ts';
import type { Authenticated, KeyAuthenticator } from './ports/key-auth.ts';
import type { WindowCounter } from './ports/shared-state.ts';
import type { KeyStore } from './ports/store.ts';
import { type RateWindow, secondsUntil, spendWindow, windowAt, workspaceRateWindow } from './rate-window.ts';
import type { Scope } from './scopes.ts';

/**
 * The order in which a key is judged (docs/api.md §2.3 rows 2–4, §2.5, §7.1), whoever owns the keys:
 * an address with too many failed keys is refused before its key is read; a missing or unknown key
 * counts as a failure; a valid key's request spends its window whatever comes after; then the scope.
 */
export interface KeyAuthenticationDeps {
  /** The owner of a presented (trimmed, non-empty) key, or a 303 Refusal. */
  identify(key: string): Promise<KeyOwner>;
  /** The window one request of this owner spends. */
  windowOf(owner: KeyOwner, clientAddress: string): RateWindow;
  counter: WindowCounter;
  failedKeyLimit: number;
  failedKeyWindowMs: number;
  now?: () => number;
  /** Told of every key that got through (last-used times). */
  onUsed?: (keyId: number) => void;
}

export function keyAuthentication(deps: KeyAuthenticationDeps): KeyAuthenticator {
  const now = deps.now ?? Date.now;
  const failedKeys = (clientAddress: string) => `failed-key:${clientKey(clientAddress)}`;

  async function guardFailedKeys(clientAddress: string): Promise<void> {
    const at = now();
    const window = windowAt(at, deps.failedKeyWindowMs);
    if ((await deps.counter.peek(failedKeys(clientAddress), window)) >= deps.failedKeyLimit) {
      throw new Refusal('429', 'Too many requests with a missing or wrong API key from this address.', {
        retryAfterSeconds: secondsUntil(window.end, at),
      });
    }
  }

  async function identify(key: string | undefined, clientAddress: string): Promise<KeyOwner> {
    const trimmed = key?.trim() ?? '';
    try {
      if (trimmed === '') throw new Refusal('301');
      return await deps.identify(trimmed);
    } catch (error) {
      if (error instanceof Refusal) {
        await deps.counter.increment(failedKeys(clientAddress), windowAt(now(), deps.failedKeyWindowMs));
      }
      throw error;
    }
  }

  return {
    async authenticate(key, clientAddress, scope): Promise<Authenticated> {
      await guardFailedKeys(clientAddress);
      const owner = await identify(key, clientAddress);
      const rate = await spendWindow(deps.counter, deps.windowOf(owner, clientAddress), now());
      deps.onUsed?.(owner.keyId);
      if (scope !== undefined && !owner.scopes.includes(scope)) {
        throw new Refusal('315', `This key lacks the ${scope} scope.`, { rate });
      }
      if (scope !== undefined && !may(owner.role, scope)) {
        throw new Refusal('315', `The role of this key's maker does not allow ${scope}.`, { rate });
      }
      return { actor: owner, rate, maker: { userId: owner.userId, role: owner.role } };
    },
  };
}

/** Workspace keys (docs/api.md §2.5, §11): looked up by SHA-256, compared in constant time; live, on a plan with API access. */
export function accountKeyOwner(store: Pick<KeyStore, 'findKeyByHash'>) {
  return async (key: string): Promise<KeyOwner> => {
    const hash = hashApiKey(key);
    const owner = await store.findKeyByHash(hash);
    if (!owner || !sameHash(owner.hash, hash)) throw new Refusal('303');
    return liveOwner(owner);
  };
}

/** The owner of a key that may act: not revoked, not suspended, on a plan with API access (else 303). */
function liveOwner(owner: KeyOwner): KeyOwner {
  if (owner.revoked) throw new Refusal('303', 'This API key has been revoked.');
  if (owner.suspended) throw new Refusal('303', 'This API key’s workspace or maker is suspended.');
  if (!owner.plan.apiAccess)
    throw new Refusal('303', 'The plan of this API key does not include API access.');
  return owner;
}

/**
 * A workspace's main key judged without its text, for someone who proved otherwise that they may
 * use it (a password, docs/api.md §15): the same checks, window and scopes as the key itself.
 */
export function mainKeys(
  store: Pick<KeyStore, 'findMainKeyOwner'>,
  deps: Omit<KeyAuthenticationDeps, 'identify' | 'windowOf'>,
) {
  const judge = keyAuthentication({
    ...deps,
    identify: async (workspaceId) => {
      const owner = await store.findMainKeyOwner(Number(workspaceId));
      if (!owner) throw new Refusal('303', 'This workspace has no API key.');
      return liveOwner(owner);
    },
    windowOf: workspaceRateWindow,
  });
  return (workspaceId: number, clientAddress: string, scope: Scope | undefined) =>
    judge.authenticate(String(workspaceId), clientAddress, scope);
}

export type MainKeys = ReturnType<typeof mainKeys>;

/** The keys of accounts, each request spending its account's hourly window. */
export function accountKeys(
  store: Pick<KeyStore, 'findKeyByHash'>,
  deps: Omit<KeyAuthenticationDeps, 'identify' | 'windowOf'>,
): KeyAuthenticator {
  return keyAuthentication({ ...deps, identify: accountKeyOwner(store), windowOf: workspaceRateWindow });
}
