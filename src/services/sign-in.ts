import { randomBytes } from 'node:crypto';
import { hashPassword, verifyPassword } from '../domain/password.ts';
import { normalizeEmail } from '../domain/plans.ts';
import { HOUR_MS, secondsUntil, windowAt } from '../domain/rate-window.ts';
import type { WindowCounter } from '../state/window-counter.ts';
import type { Account, Store } from '../store/ports.ts';
import { issueAccountKey } from './manage-accounts.ts';

/**
 * Sign-up, sign-in and password change (SPEC.md 4, 5). Failed sign-ins are limited per account and
 * per client address; the answer to a failure never tells whether the email exists.
 */

export const PASSWORD_MIN = 8;
/** scrypt takes any length; a cap keeps a megabyte "password" from being hashed. */
export const PASSWORD_MAX = 1024;
/** Sign-ups (each one an scrypt hash and an account) an address may make per hour. */
export const SIGNUPS_PER_HOUR = 20;

export interface SignInOptions {
  store: Pick<
    Store,
    'findAccountByEmail' | 'findPlanByName' | 'createAccount' | 'replaceApiKey' | 'setPasswordHash'
  >;
  counter: WindowCounter;
  signup: { open: boolean; plan: string };
  limits: { perAccount: number; perAddress: number; windowMs: number };
  now?: () => number;
}

export type Throttled = { kind: 'throttled'; retryAfterSeconds: number };
export type SignInResult = { kind: 'signed-in'; account: Account } | { kind: 'failed' } | Throttled;
export type SignUpResult =
  | { kind: 'created'; account: Account; apiKey: string }
  | { kind: 'closed' }
  | { kind: 'plan-missing'; plan: string }
  | { kind: 'email-invalid' }
  | { kind: 'password-invalid' }
  | { kind: 'email-taken' }
  | Throttled;
export type PasswordChangeResult =
  | { kind: 'changed' }
  | { kind: 'wrong-password' }
  | { kind: 'password-invalid' }
  | Throttled;

const validPassword = (password: string) =>
  password.length >= PASSWORD_MIN && password.length <= PASSWORD_MAX;

export function signInService(options: SignInOptions) {
  const { store, counter, limits } = options;
  const now = options.now ?? Date.now;
  // An unknown email is checked against this hash, so it costs the same scrypt time as a known one.
  let decoy: Promise<string> | undefined;
  const decoyHash = () => {
    decoy ??= hashPassword(randomBytes(18).toString('base64url'));
    return decoy;
  };

  const accountKey = (email: string) => `signin-failed:{account-${email}}`;
  const addressKey = (address: string) => `signin-failed:{address-${address}}`;

  async function throttled(email: string, address: string): Promise<Throttled | undefined> {
    const at = now();
    const window = windowAt(at, limits.windowMs);
    const [perAccount, perAddress] = await Promise.all([
      counter.peek(accountKey(email), window),
      counter.peek(addressKey(address), window),
    ]);
    if (perAccount < limits.perAccount && perAddress < limits.perAddress) return undefined;
    return { kind: 'throttled', retryAfterSeconds: secondsUntil(window.end, at) };
  }

  async function countFailure(email: string, address: string): Promise<void> {
    const window = windowAt(now(), limits.windowMs);
    await Promise.all([
      counter.increment(accountKey(email), window),
      counter.increment(addressKey(address), window),
    ]);
  }

  /** True only for the account's own password; spends one scrypt either way. */
  async function passwordMatches(account: Account | undefined, password: string): Promise<boolean> {
    const stored = account?.passwordHash ?? (await decoyHash());
    const matches = validPassword(password) ? await verifyPassword(password, stored) : false;
    return matches && account?.passwordHash != null;
  }

  return {
    async signIn(email: string, password: string, address: string): Promise<SignInResult> {
      const normalized = normalizeEmail(email) ?? email.trim().toLowerCase().slice(0, 254);
      const limited = await throttled(normalized, address);
      if (limited) return limited;
      const account = normalizeEmail(email) ? await store.findAccountByEmail(normalized) : undefined;
      if (await passwordMatches(account, password)) return { kind: 'signed-in', account: account as Account };
      await countFailure(normalized, address);
      return { kind: 'failed' };
    },

    async signUp(email: string, password: string, address: string): Promise<SignUpResult> {
      if (!options.signup.open) return { kind: 'closed' };
      const at = now();
      const window = windowAt(at, HOUR_MS);
      if ((await counter.peek(`signup:{${address}}`, window)) >= SIGNUPS_PER_HOUR) {
        return { kind: 'throttled', retryAfterSeconds: secondsUntil(window.end, at) };
      }
      const normalized = normalizeEmail(email);
      if (!normalized) return { kind: 'email-invalid' };
      if (!validPassword(password)) return { kind: 'password-invalid' };
      const plan = await store.findPlanByName(options.signup.plan);
      if (!plan) return { kind: 'plan-missing', plan: options.signup.plan };
      await counter.increment(`signup:{${address}}`, window);
      const created = await store.createAccount(normalized, plan.id, await hashPassword(password));
      if (created.kind === 'email-taken') return created;
      // Every account gets its key with the account, as the CLI does; the page shows it only with API access.
      return {
        kind: 'created',
        account: created.account,
        apiKey: await issueAccountKey(store, created.account.id),
      };
    },

    /** Needs the current password; failures count like failed sign-ins, so a stolen session cannot guess it. */
    async changePassword(
      account: Account,
      current: string,
      next: string,
      address: string,
    ): Promise<PasswordChangeResult> {
      const limited = await throttled(account.email, address);
      if (limited) return limited;
      if (!(await passwordMatches(account, current))) {
        await countFailure(account.email, address);
        return { kind: 'wrong-password' };
      }
      if (!validPassword(next)) return { kind: 'password-invalid' };
      await store.setPasswordHash(account.id, await hashPassword(next));
      return { kind: 'changed' };
    },
  };
}

export type SignInService = ReturnType<typeof signInService>;
