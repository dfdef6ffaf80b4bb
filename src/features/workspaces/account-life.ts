import { clientKey } from '../../core/client-key.ts';
import { DAY_MS, HOUR_MS } from '../../core/days.ts';
import type { User } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import { hashLinkToken, isLinkToken, newLinkToken } from '../../core/link-token.ts';
import { NO_AUDIT, type RecordAudit } from '../../core/moderation.ts';
import { normalizeEmail } from '../../core/plans.ts';
import type { ModerationStore } from '../../core/ports/abuse-store.ts';
import type { Mailer } from '../../core/ports/mailer.ts';
import type { WindowCounter } from '../../core/ports/shared-state.ts';
import type { EmailChangeStore, SessionStore } from '../../core/ports/store.ts';
import { secondsUntil, windowAt } from '../../core/rate-window.ts';
import { sessionHandle } from '../../web/session/sessions.ts';
import { auditFact, userAuditor } from './audit-actor.ts';
import { emailChangeMessage, emailChangeNoticeMessage } from './mail/messages.ts';
import type { SignInService } from './sign-in.ts';

/**
 * A person's account over its life (docs/api.md §22): their sessions, ended one by one or all but
 * this one; a change of email, confirmed by a single-use link mailed to the new address (valid a
 * day) while the old one is told; and the deletion of the account by its person, refused (319)
 * while they are the last owner of a team workspace. Each is written to the audit log.
 */

export const EMAIL_CHANGE_PREFIX = '/email/change/';
/** Changes of email a person may ask for in an hour, and wrong links an address may try. */
export const EMAIL_CHANGE_LIMITS = { perUser: 5, failuresPerAddress: 10 } as const;

export interface AccountLifeOptions {
  store: EmailChangeStore &
    Pick<ModerationStore, 'deleteUser'> &
    Pick<SessionStore, 'listSessionsOfUser' | 'deleteSessionOfUser' | 'deleteSessionsOfUser'>;
  auth: Pick<SignInService, 'confirmPassword'>;
  counter: WindowCounter;
  baseUrl: URL;
  mailer?: Mailer;
  onMailError?: (error: unknown) => void;
  now?: () => number;
  audit?: RecordAudit;
}

export function accountLife(options: AccountLifeOptions) {
  const { store, counter, mailer } = options;
  const now = options.now ?? Date.now;
  const audit = options.audit ?? NO_AUDIT;
  const failuresOf = (address: string) => `email-change-failed:{${clientKey(address)}}`;

  /** Counts one against the key unless it has reached the limit, which is refused (429). */
  async function spend(key: string, limit: number, count = true): Promise<void> {
    const at = now();
    const window = windowAt(at, HOUR_MS);
    if ((await counter.peek(key, window)) >= limit) {
      throw new Refusal('throttled', undefined, { retryAfterSeconds: secondsUntil(window.end, at) });
    }
    if (count) await counter.increment(key, window);
  }

  async function badLink(address: string): Promise<never> {
    await counter.increment(failuresOf(address), windowAt(now(), HOUR_MS));
    throw new Refusal('link-invalid');
  }

  const record = (user: Pick<User, 'id' | 'email'>, action: string, after: Record<string, unknown> | null) =>
    audit({ ...auditFact(null, action, user.email, null, after), ...userAuditor(user) });

  /** The person's password; for one who signs in only through OpenID, their current email typed. */
  async function confirmSelf(user: User, confirmation: string, address: string): Promise<void> {
    if (user.passwordHash !== null) return options.auth.confirmPassword(user, confirmation, address);
    if (normalizeEmail(confirmation) !== user.email) throw new Refusal('confirm-required');
  }

  return {
    /** Signs out one other session of the person, named by its handle; whether there was one. */
    async endSession(user: User, current: Buffer, handle: string): Promise<boolean> {
      const sessions = await store.listSessionsOfUser(user.id, new Date(now()));
      const session = sessions.find(
        (one) => sessionHandle(one.idHash) === handle && !one.idHash.equals(current),
      );
      if (!session || !(await store.deleteSessionOfUser(user.id, session.idHash))) return false;
      await record(user, 'session.end', { agent: session.agent });
      return true;
    },

    /** Signs out every session of the person but this one. */
    async endOtherSessions(user: User, current: Buffer): Promise<void> {
      await store.deleteSessionsOfUser(user.id, current);
      await record(user, 'session.end-others', null);
    },

    /** Mail is configured: a new address can be confirmed at all. */
    mails: mailer !== undefined,

    /** Mails the link to the new address and word of it to the old; nothing changes before the link. */
    async requestEmailChange(user: User, emailText: string, password: string, address: string) {
      if (!mailer) throw new Refusal('mail-off');
      const email = normalizeEmail(emailText);
      if (!email || email === user.email) throw new Refusal('email-invalid');
      await spend(`email-change:{user-${user.id}}`, EMAIL_CHANGE_LIMITS.perUser, false);
      await confirmSelf(user, password, address);
      await spend(`email-change:{user-${user.id}}`, EMAIL_CHANGE_LIMITS.perUser);
      const { token, hash } = newLinkToken();
      await store.createEmailChange(hash, user.id, email, new Date(now() + DAY_MS));
      const url = new URL(`${EMAIL_CHANGE_PREFIX}${token}`, options.baseUrl).href;
      const accountUrl = new URL('/account', options.baseUrl).href;
      const report = (error: unknown) => options.onMailError?.(error);
      // The answer never waits for the SMTP server.
      mailer.send(emailChangeMessage({ to: email, url })).catch(report);
      mailer
        .send(emailChangeNoticeMessage({ to: user.email, newEmail: email, url: accountUrl }))
        .catch(report);
      return email;
    },

    /** Refuses a link that is used, expired or unknown before its form is shown. */
    async checkEmailChange(token: unknown, address: string): Promise<void> {
      await spend(failuresOf(address), EMAIL_CHANGE_LIMITS.failuresPerAddress, false);
      if (!isLinkToken(token) || !(await store.emailChangeLive(hashLinkToken(token), new Date(now())))) {
        await badLink(address);
      }
    },

    /** Moves the person to the new address the link was mailed to; once. */
    async confirmEmailChange(token: unknown, address: string): Promise<string> {
      await spend(failuresOf(address), EMAIL_CHANGE_LIMITS.failuresPerAddress, false);
      if (!isLinkToken(token)) return badLink(address);
      const result = await store.takeEmailChange(hashLinkToken(token), new Date(now()));
      if (result.kind === 'gone') return badLink(address);
      if (result.kind === 'email-taken') throw new Refusal('email-taken');
      const by = { actorId: result.userId, actor: result.oldEmail };
      const [before, after] = [{ email: result.oldEmail }, { email: result.newEmail }];
      await audit({ ...auditFact(null, 'user.email-change', result.newEmail, before, after), ...by });
      return result.newEmail;
    },

    /** Deletes the person's account with their password (confirmSelf). */
    async deleteAccount(user: User, confirmation: string, address: string): Promise<void> {
      await confirmSelf(user, confirmation, address);
      const result = await store.deleteUser(user.id);
      if (result === 'last-owner') throw new Refusal('319');
      if (result !== 'deleted') throw new Refusal('not-found');
      await record(user, 'user.delete', null);
    },
  };
}

export type AccountLife = ReturnType<typeof accountLife>;
