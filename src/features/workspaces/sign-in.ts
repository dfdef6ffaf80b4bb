import { randomBytes } from 'node:crypto';
import { clientKey } from '../../core/client-key.ts';
import { HOUR_MS } from '../../core/days.ts';
import type { Account, User } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import { hashPassword, verifyPassword } from '../../core/password.ts';
import { normalizeEmail } from '../../core/plans.ts';
import type { WindowCounter } from '../../core/ports/shared-state.ts';
import type { AccountStore, KeyStore } from '../../core/ports/store.ts';
import { secondsUntil, windowAt } from '../../core/rate-window.ts';
import { issueAccountKey } from './api-access.ts';
import { type SignupRules, type SignupStore, signupRefusal } from './signup-rules.ts';

/**
 * Sign-up, sign-in and password change (docs/api.md §4, §5). Failed sign-ins are limited per account
 * and per client address; the answer to a failure never tells whether the email exists. Every
 * refusal is thrown with the words the pages show.
 */

export const PASSWORD_MIN = 8;
/** scrypt takes any length; a cap keeps a megabyte "password" from being hashed. */
export const PASSWORD_MAX = 1024;
/** Sign-ups (each one an scrypt hash and an account) an address may make per hour (SPEC §13). */
export const SIGNUPS_PER_HOUR = 5;

export interface SignInOptions {
  store: Pick<
    AccountStore & KeyStore,
    'findUserByEmail' | 'findPlanByName' | 'createAccount' | 'replaceMainKey' | 'setPasswordHash'
  > &
    SignupStore;
  counter: WindowCounter;
  signup: SignupRules;
  limits: { perAccount: number; perAddress: number; windowMs: number };
  now?: () => number;
}

const validPassword = (password: string) =>
  password.length >= PASSWORD_MIN && password.length <= PASSWORD_MAX;

function throttled(retryAfterSeconds: number, message?: string): Refusal {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const text = message ?? `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
  return new Refusal('throttled', text, { retryAfterSeconds });
}

/** Failed sign-ins counted per account and per address in a window (docs/adr/009). */
function failureLimiter({ counter, limits }: SignInOptions, now: () => number) {
  const accountKey = (email: string) => `signin-failed:{account-${email}}`;
  const addressKey = (address: string) => `signin-failed:{address-${clientKey(address)}}`;

  /** Seconds to wait when the account or the address has failed too often in this window, else 0. */
  async function waitFor(email: string, address: string): Promise<number> {
    const at = now();
    const window = windowAt(at, limits.windowMs);
    const [perAccount, perAddress] = await Promise.all([
      counter.peek(accountKey(email), window),
      counter.peek(addressKey(address), window),
    ]);
    if (perAccount < limits.perAccount && perAddress < limits.perAddress) return 0;
    return secondsUntil(window.end, at);
  }

  async function countFailure(email: string, address: string): Promise<void> {
    const window = windowAt(now(), limits.windowMs);
    await Promise.all([
      counter.increment(accountKey(email), window),
      counter.increment(addressKey(address), window),
    ]);
  }
  return { waitFor, countFailure };
}

/** What a sign-up form sent, with the client's address and the invitation link it came through, if any. */
export interface SignUpRequest {
  email: string;
  password: string;
  address: string;
  /** The token of the invitation link the sign-up came from: under SIGNUP=invite, nobody signs up without one. */
  invitationToken?: string;
}

/**
 * What a sign-up is refused for before any account is looked at, the same for a new email and a
 * taken one; counts it (SIGNUPS_PER_HOUR per address an hour). The email, normalised, and the plan's id.
 */
async function admitSignUp(
  options: SignInOptions,
  at: number,
  { email, password, address, invitationToken }: SignUpRequest,
): Promise<{ email: string; planId: number }> {
  const { store, counter } = options;
  if (options.signup.mode === 'closed') throw new Refusal('signup-closed');
  const window = windowAt(at, HOUR_MS);
  if ((await counter.peek(`signup:{${clientKey(address)}}`, window)) >= SIGNUPS_PER_HOUR) {
    throw throttled(secondsUntil(window.end, at));
  }
  const normalized = normalizeEmail(email);
  if (!normalized) throw new Refusal('email-invalid');
  const refusal = await signupRefusal(store, options.signup, normalized, invitationToken, at);
  if (refusal) throw refusal;
  if (!validPassword(password)) {
    throw new Refusal('password-invalid', `A password has ${PASSWORD_MIN} to 1,024 characters.`);
  }
  const plan = await store.findPlanByName(options.signup.plan);
  if (!plan) {
    throw new Refusal(
      'plan-missing',
      'Sign-up is not available: the plan for new accounts does not exist. Tell the operator.',
    );
  }
  await counter.increment(`signup:{${clientKey(address)}}`, window);
  return { email: normalized, planId: plan.id };
}

export type SignUpOutcome = { kind: 'created'; account: Account; apiKey: string } | { kind: 'email-taken' };

/** The account of an admitted sign-up, with its key; or the email was taken (the unique index decides). */
async function createAccount(
  options: SignInOptions,
  admitted: { email: string; planId: number },
  password: string,
): Promise<SignUpOutcome> {
  const { store } = options;
  const created = await store.createAccount(admitted.email, admitted.planId, await hashPassword(password));
  if (created.kind === 'email-taken') return created;
  // Every personal workspace gets its key with it, as the CLI does; the page shows it only with API access.
  const { user, workspace } = created.account;
  const apiKey = await issueAccountKey(store, workspace.id, user.id);
  return { kind: 'created', account: created.account, apiKey };
}

/** What a sign-up by mail tells the person, after its answer, for either outcome. */
export interface SignUpMail {
  created(account: Account): Promise<void>;
  taken(email: string): Promise<void>;
}

export function signInService(options: SignInOptions) {
  const { store } = options;
  const now = options.now ?? Date.now;
  // An unknown email is checked against this hash, so it costs the same scrypt time as a known one.
  let decoy: Promise<string> | undefined;
  const decoyHash = () => {
    decoy ??= hashPassword(randomBytes(18).toString('base64url'));
    return decoy;
  };

  const { waitFor, countFailure } = failureLimiter(options, now);

  /** True only for the user's own password; spends one scrypt either way. */
  async function passwordMatches(user: User | undefined, password: string): Promise<boolean> {
    const stored = user?.passwordHash ?? (await decoyHash());
    const matches = validPassword(password) ? await verifyPassword(password, stored) : false;
    return matches && user?.passwordHash != null;
  }

  return {
    /** Sign-up must not fail later for a reason known now: the plan of new accounts has to exist. */
    async checkSignupPlan(): Promise<void> {
      if (options.signup.mode !== 'closed' && !(await store.findPlanByName(options.signup.plan))) {
        throw new Error(
          `SIGNUP_PLAN "${options.signup.plan}" is not a plan: create it (npx snip plan create ${options.signup.plan}), ` +
            'set SIGNUP_PLAN to an existing plan, or set SIGNUP=closed',
        );
      }
    },

    async signIn(email: string, password: string, address: string): Promise<User> {
      const normalized = normalizeEmail(email) ?? email.trim().toLowerCase().slice(0, 254);
      const wait = await waitFor(normalized, address);
      if (wait > 0) throw throttled(wait);
      const user = normalizeEmail(email) ? await store.findUserByEmail(normalized) : undefined;
      if (await passwordMatches(user, password)) {
        // Said only to whoever knows the password (docs/api.md §13).
        if (user?.suspendedAt) throw new Refusal('account-suspended');
        return user as User;
      }
      await countFailure(normalized, address);
      // One answer for an unknown email and a wrong password, so it never tells which.
      throw new Refusal('sign-in-failed');
    },

    /** A new account at once, or 409 `email-taken`: without mail, the clear answer is all there is. */
    async signUp(request: SignUpRequest): Promise<{ account: Account; apiKey: string }> {
      const admitted = await admitSignUp(options, now(), request);
      const outcome = await createAccount(options, admitted, request.password);
      if (outcome.kind === 'email-taken') {
        throw new Refusal('email-taken', 'An account with this email exists. Sign in instead.');
      }
      return outcome;
    },

    /**
     * With mail, the same answer for a new email and a taken one, as a reset request: the refusals
     * that do not depend on the email's account are given now; the account is made (or found taken)
     * after the answer, and `mail` tells the address which, so neither the answer nor its timing differs.
     */
    async signUpByMail(request: SignUpRequest, mail: SignUpMail, onError: (error: unknown) => void) {
      const admitted = await admitSignUp(options, now(), request);
      const after = async () => {
        const outcome = await createAccount(options, admitted, request.password);
        await (outcome.kind === 'created' ? mail.created(outcome.account) : mail.taken(admitted.email));
      };
      after().catch(onError);
    },

    /**
     * The signed-in person's own password, before a change only they may make; failures count like
     * failed sign-ins, so a stolen session cannot guess it.
     */
    async confirmPassword(user: User, password: string, address: string): Promise<void> {
      const wait = await waitFor(user.email, address);
      if (wait > 0) throw throttled(wait, 'Too many wrong passwords. Try again later.');
      if (!(await passwordMatches(user, password))) {
        await countFailure(user.email, address);
        throw new Refusal('wrong-password');
      }
    },

    /** Needs the current password (confirmPassword). */
    async changePassword(user: User, current: string, next: string, address: string): Promise<void> {
      await this.confirmPassword(user, current, address);
      if (!validPassword(next)) {
        throw new Refusal('password-invalid', `A new password has ${PASSWORD_MIN} to 1,024 characters.`);
      }
      await store.setPasswordHash(user.id, await hashPassword(next));
    },
  };
}

export type SignInService = ReturnType<typeof signInService>;
