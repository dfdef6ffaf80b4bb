import { clientKey } from '../../core/client-key.ts';
import { DAY_MS, HOUR_MS } from '../../core/days.ts';
import type { User } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import { hashLinkToken, isLinkToken, newLinkToken } from '../../core/link-token.ts';
import { hashPassword } from '../../core/password.ts';
import { normalizeEmail } from '../../core/plans.ts';
import type { Mailer } from '../../core/ports/mailer.ts';
import type { WindowCounter } from '../../core/ports/shared-state.ts';
import type { AccountStore, SessionStore, TokenPurpose, UserTokenStore } from '../../core/ports/store.ts';
import { secondsUntil, windowAt } from '../../core/rate-window.ts';
import { accountExistsMessage, passwordResetMessage, verificationMessage } from './mail/messages.ts';
import { PASSWORD_MAX, PASSWORD_MIN } from './sign-in.ts';

/**
 * The single-use links Snip mails to a person (docs/api.md §11): a password reset, valid one hour,
 * and the confirmation of their email, valid a day. Asking for a reset never tells whether the email
 * has an account: the request path does the same work for every email (the counters) and leaves the
 * lookup, the token and the SMTP conversation to run after the answer, so neither the answer nor
 * its timing differs; a sign-up by mail is answered the same way (sign-in.ts), and mailed here
 * either the confirmation link or word that the address has an account. Wrong links are counted
 * per address, so tokens cannot be guessed at length.
 */

export const RESET_PREFIX = '/password/reset/';
export const VERIFY_PREFIX = '/email/verify/';

/** Per hour: resets asked for one email and from one address, wrong links from one address, confirmation mails per user. */
export const MAIL_LINK_LIMITS = {
  resetsPerEmail: 5,
  resetsPerAddress: 20,
  failuresPerAddress: 10,
  verificationsPerUser: 5,
} as const;

export type MailLinkStore = Pick<
  AccountStore & SessionStore & UserTokenStore,
  | 'findUserByEmail'
  | 'createUserToken'
  | 'takeUserToken'
  | 'userTokenLive'
  | 'setPasswordHash'
  | 'setEmailVerified'
  | 'deleteSessionsOfUser'
>;

export interface MailLinkOptions {
  store: MailLinkStore;
  counter: WindowCounter;
  baseUrl: URL;
  /** None without SMTP_URL: then no link is ever made. */
  mailer?: Mailer;
  /** Told of a mail (or its token) that could not be made or sent after the answer was given. */
  onMailError?: (error: unknown) => void;
  now?: () => number;
}

function throttled(retryAfterSeconds: number): Refusal {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return new Refusal(
    'throttled',
    `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    { retryAfterSeconds },
  );
}

/** Counters of one-hour windows: refuse when any has reached its limit, else count. */
function hourlyLimits(counter: WindowCounter, now: () => number) {
  async function refuseAtLimit(limits: ReadonlyArray<readonly [key: string, limit: number]>) {
    const at = now();
    const window = windowAt(at, HOUR_MS);
    const counts = await Promise.all(limits.map(([key]) => counter.peek(key, window)));
    if (limits.some(([, limit], i) => (counts[i] ?? 0) >= limit)) {
      throw throttled(secondsUntil(window.end, at));
    }
  }
  async function count(keys: readonly string[]) {
    const window = windowAt(now(), HOUR_MS);
    await Promise.all(keys.map((key) => counter.increment(key, window)));
  }
  /** Counts one more unless the key has reached its limit: whether it was counted. */
  async function within(key: string, limit: number): Promise<boolean> {
    const window = windowAt(now(), HOUR_MS);
    if ((await counter.peek(key, window)) >= limit) return false;
    await counter.increment(key, window);
    return true;
  }
  return { refuseAtLimit, count, within };
}

/** What both kinds of link need: the store, the clock, the hourly counters, the mailer. */
function linkContext(options: MailLinkOptions) {
  const { store, mailer } = options;
  const now = options.now ?? Date.now;
  const hourly = hourlyLimits(options.counter, now);
  const failuresOf = (address: string) => `mail-link-failed:{${clientKey(address)}}`;
  const reportError = (error: unknown) => options.onMailError?.(error);

  return {
    store,
    mailer,
    now,
    hourly,
    reportError,

    /** A new link of the user's, valid `validMs` from now; only its token's hash is stored. */
    async newLink(user: User, purpose: TokenPurpose, validMs: number, prefix: string): Promise<string> {
      const { token, hash } = newLinkToken();
      await store.createUserToken(hash, user.id, purpose, new Date(now() + validMs));
      return new URL(`${prefix}${token}`, options.baseUrl).href;
    },

    /** Refuses a link that is not (or no longer) good, counting it against the address; takes nothing. */
    async check(token: unknown, purpose: TokenPurpose, address: string): Promise<void> {
      await hourly.refuseAtLimit([[failuresOf(address), MAIL_LINK_LIMITS.failuresPerAddress]]);
      if (
        !isLinkToken(token) ||
        !(await store.userTokenLive(hashLinkToken(token), purpose, new Date(now())))
      ) {
        await hourly.count([failuresOf(address)]);
        throw new Refusal('link-invalid');
      }
    },

    /** The user a mailed link names, once; a wrong link counts against the address. */
    async take(token: unknown, purpose: TokenPurpose, address: string, check?: () => void) {
      await hourly.refuseAtLimit([[failuresOf(address), MAIL_LINK_LIMITS.failuresPerAddress]]);
      if (!isLinkToken(token)) {
        await hourly.count([failuresOf(address)]);
        throw new Refusal('link-invalid');
      }
      // Checked before the token is taken, so a refused password does not spend the link.
      check?.();
      const userId = await store.takeUserToken(hashLinkToken(token), purpose, new Date(now()));
      if (userId === undefined) {
        await hourly.count([failuresOf(address)]);
        throw new Refusal('link-invalid');
      }
      return userId;
    },
  };
}

type LinkContext = ReturnType<typeof linkContext>;

function passwordReset({ store, mailer, hourly, reportError, newLink, take, check }: LinkContext) {
  async function mailReset(email: string): Promise<void> {
    const user = await store.findUserByEmail(email);
    if (!user || !mailer) return;
    const url = await newLink(user, 'reset', HOUR_MS, RESET_PREFIX);
    await mailer.send(passwordResetMessage({ to: user.email, url }));
  }

  return {
    /** The same outcome for every well-formed email; the link is mailed only when it has an account. */
    async requestReset(emailText: unknown, address: string): Promise<void> {
      const email = typeof emailText === 'string' ? normalizeEmail(emailText) : undefined;
      if (!email) throw new Refusal('email-invalid');
      const perEmail = `reset-email:{${email}}`;
      const perAddress = `reset-address:{${clientKey(address)}}`;
      await hourly.refuseAtLimit([
        [perEmail, MAIL_LINK_LIMITS.resetsPerEmail],
        [perAddress, MAIL_LINK_LIMITS.resetsPerAddress],
      ]);
      await hourly.count([perEmail, perAddress]);
      mailReset(email).catch(reportError);
    },

    /** Refuses a reset link that is used, expired or unknown before its form is shown. */
    checkResetLink: (token: unknown, address: string) => check(token, 'reset', address),

    /** Sets the password a reset link was mailed for; every session of the user ends. */
    async resetPassword(token: unknown, password: string, address: string): Promise<void> {
      const userId = await take(token, 'reset', address, () => {
        if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
          throw new Refusal('password-invalid', `A new password has ${PASSWORD_MIN} to 1,024 characters.`);
        }
      });
      await store.setPasswordHash(userId, await hashPassword(password));
      await store.deleteSessionsOfUser(userId);
      // The link reached that inbox: the email is confirmed as surely as by the verification link.
      await store.setEmailVerified(userId);
    },
  };
}

/**
 * What a sign-up by mail sends after its answer: the confirmation link to a new account, and to the
 * address of an existing one a note that it exists, with the ways back in (a few an hour per address,
 * so sign-ups cannot flood an inbox).
 */
function signUpMails(context: LinkContext, sendVerification: (user: User) => Promise<void>, baseUrl: URL) {
  const { store, mailer, hourly } = context;
  return {
    created: (account: { user: User }) => sendVerification(account.user),
    async taken(email: string): Promise<void> {
      const user = await store.findUserByEmail(email);
      if (!user || !mailer) return;
      if (!(await hourly.within(`signup-taken:{${email}}`, MAIL_LINK_LIMITS.resetsPerEmail))) return;
      const signInUrl = new URL('/login', baseUrl).href;
      const resetUrl = new URL('/password/forgot', baseUrl).href;
      await mailer.send(accountExistsMessage({ to: user.email, signInUrl, resetUrl }));
    },
  };
}

function emailVerification({ store, mailer, hourly, reportError, newLink, take }: LinkContext) {
  async function sendVerification(user: User): Promise<void> {
    if (!mailer) return;
    const url = await newLink(user, 'verify', DAY_MS, VERIFY_PREFIX);
    // The answer never waits for the SMTP server: a slow or dead one holds no request up.
    mailer.send(verificationMessage({ to: user.email, url })).catch(reportError);
  }

  return {
    sendVerification,

    /** Another confirmation mail, at most a few an hour per user. */
    async resendVerification(user: User): Promise<void> {
      const key = `verify-mail:{user-${user.id}}`;
      await hourly.refuseAtLimit([[key, MAIL_LINK_LIMITS.verificationsPerUser]]);
      await hourly.count([key]);
      await sendVerification(user);
    },

    /** Confirms the email a verification link was mailed to; the user's id. */
    async verify(token: unknown, address: string): Promise<number> {
      const userId = await take(token, 'verify', address);
      await store.setEmailVerified(userId);
      return userId;
    },
  };
}

export function mailLinks(options: MailLinkOptions) {
  const context = linkContext(options);
  const verification = emailVerification(context);
  return {
    /** Mail is configured: links can be sent at all. */
    mails: options.mailer !== undefined,
    ...passwordReset(context),
    ...verification,
    signUpMail: signUpMails(context, verification.sendVerification, options.baseUrl),
  };
}

export type MailLinks = ReturnType<typeof mailLinks>;

/** What sign-up is given to mail its links (the account pages' options carry all of it). */
export interface SignUpVerificationOptions {
  store?: MailLinkStore;
  counter?: WindowCounter;
  baseUrl?: URL;
  mailer?: Mailer;
  emailVerification?: 'required' | 'off';
}
