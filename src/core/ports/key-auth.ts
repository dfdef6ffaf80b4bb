import type { Role } from '../authorization.ts';
import type { Actor } from '../entities.ts';
import type { RateState } from '../errors.ts';
import type { Scope } from '../scopes.ts';

/** A request its key let through: who acts, and the window it spent. */
export interface Authenticated {
  actor: Actor;
  rate: RateState;
  /** Who made the key (null: the operator) and their role now, which bounds what the key may do. */
  maker: { userId: number | null; role: Role };
}

/**
 * Checks a presented key for one scope (docs/api.md §2.3 rows 2–4, §2.5, §7.1). Refusals: 429 from
 * the failed-key limiter before the key is read, 301 without a key, 303 for a key that is not live,
 * 429 when the hour is spent, 315 when the key lacks the scope or its maker's role does not allow it
 * (core/authorization.ts). Every valid key's request counts.
 */
export interface KeyAuthenticator {
  /** `scope` undefined: any live key of the account will do. */
  authenticate(
    key: string | undefined,
    clientAddress: string,
    scope: Scope | undefined,
  ): Promise<Authenticated>;
}
