import { createHash } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { User } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import { NO_AUDIT, type RecordAudit } from '../../core/moderation.ts';
import type { WindowCounter } from '../../core/ports/shared-state.ts';
import type { TwoFactorStore } from '../../core/ports/store.ts';
import { secondsUntil, windowAt } from '../../core/rate-window.ts';
import { auditFact, userAuditor } from './audit-actor.ts';
import { type Sealer, sealer } from './sealed.ts';

/**
 * Two-factor sign-in (docs/api.md §22, docs/adr/049): TOTP of RFC 6238 (SHA-1, 6 digits, 30 s,
 * one step either side), the secret sealed in the store and shown once; ten single-use recovery
 * codes known by their SHA-256. A code of a step is taken once, by the store, so no instance of a
 * fleet takes it twice; wrong codes are counted per person in the shared window counters.
 */

export const TOTP_PERIOD_S = 30;
export const RECOVERY_CODES = 10;
/** Wrong codes a person may send in a window before every code is refused until it ends. */
export const CODE_FAILURES = 5;
export const CODE_WINDOW_MS = 15 * 60_000;

const SIX_DIGITS = /^\d{6}$/;
/** A recovery code as shown: ten letters and digits of base 32, in two groups of five. */
const RECOVERY = /^[a-z2-7]{10}$/;

export interface TwoFactorOptions {
  store: TwoFactorStore;
  counter: WindowCounter;
  /** The key the secrets are sealed with (one for every instance). */
  sealKey: Buffer;
  /** What authenticator apps show the secret as: this Snip's host. */
  issuer: string;
  now?: () => number;
  audit?: RecordAudit;
}

/** What turning two-factor sign-in on shows once: the secret as text and as an otpauth:// URI. */
export interface TwoFactorSetup {
  secret: string;
  uri: string;
  /** The secret sealed for this user, carried by the form that confirms it: nothing is stored before. */
  sealed: string;
}

const hashCode = (code: string) => createHash('sha256').update(`snip-recovery:${code}`).digest('hex');

/** A recovery code as typed: spaces, hyphens and case do not matter. */
export const normalizeRecoveryCode = (text: string) => text.replace(/[\s-]/g, '').toLowerCase();

function newRecoveryCode(): string {
  // 7 random bytes are 56 bits, 11.2 base-32 characters: the first ten keep 50 of them.
  const code = new Secret({ size: 7 }).base32.slice(0, 10).toLowerCase();
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

function totpOf(secret: string, label = 'Snip', issuer = 'Snip'): TOTP {
  const options = { algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_S };
  return new TOTP({ ...options, issuer, label, secret: Secret.fromBase32(secret) });
}

export function twoFactorService(options: TwoFactorOptions) {
  const { store, counter } = options;
  const now = options.now ?? Date.now;
  const audit = options.audit ?? NO_AUDIT;
  const seal: Sealer = sealer(options.sealKey);
  const failuresOf = (userId: number) => `2fa-failed:{user-${userId}}`;

  async function refuseWhileLocked(userId: number): Promise<void> {
    const at = now();
    const window = windowAt(at, CODE_WINDOW_MS);
    if ((await counter.peek(failuresOf(userId), window)) >= CODE_FAILURES) {
      const wait = secondsUntil(window.end, at);
      throw new Refusal('throttled', undefined, { retryAfterSeconds: wait });
    }
  }

  async function wrongCode(userId: number): Promise<never> {
    await counter.increment(failuresOf(userId), windowAt(now(), CODE_WINDOW_MS));
    throw new Refusal('code-invalid');
  }

  /** The time step a six-digit code is of, one step either side of now; undefined for none. */
  function stepOf(secret: string, code: string): number | undefined {
    const at = now();
    const delta = totpOf(secret).validate({ token: code, timestamp: at, window: 1 });
    return delta === null ? undefined : Math.floor(at / 1000 / TOTP_PERIOD_S) + delta;
  }

  const record = (user: Pick<User, 'id' | 'email'>, action: string, after: Record<string, unknown> | null) =>
    audit({ ...auditFact(null, action, user.email, null, after), ...userAuditor(user) });

  return {
    /** A new secret to show once; nothing is stored until a code of it is sent back. */
    begin(user: User): TwoFactorSetup {
      const secret = new Secret({ size: 20 }).base32;
      const uri = totpOf(secret, user.email, options.issuer).toString();
      return { secret, uri, sealed: seal.seal(secret, `setup:${user.id}`) };
    },

    /** The secret shown back to the page that turns two-factor on, or undefined when the form was not ours. */
    setupOf(user: User, sealed: string): TwoFactorSetup | undefined {
      const secret = seal.open(sealed, `setup:${user.id}`);
      return secret === undefined
        ? undefined
        : { secret, uri: totpOf(secret, user.email, options.issuer).toString(), sealed };
    },

    /** Turns two-factor sign-in on once a code of the shown secret is right: the recovery codes, shown once. */
    async enable(user: User, sealed: string, code: string): Promise<string[]> {
      if (user.twoFactor) throw new Refusal('two-factor-on');
      const secret = seal.open(sealed, `setup:${user.id}`);
      if (secret === undefined) throw new Refusal('code-invalid');
      await refuseWhileLocked(user.id);
      const step = SIX_DIGITS.test(code.trim()) ? stepOf(secret, code.trim()) : undefined;
      if (step === undefined) return wrongCode(user.id);
      const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
      const hashes = codes.map((one) => hashCode(normalizeRecoveryCode(one)));
      await store.enableTwoFactor(user.id, seal.seal(secret, `totp:${user.id}`), step, hashes);
      await record(user, '2fa.enable', { recovery_codes: RECOVERY_CODES });
      return codes;
    },

    /**
     * Checks a code of the person's: a six-digit code of their app, each step's once, or a recovery
     * code, each once. Wrong ones count; five in the window refuse every code till it ends (429).
     */
    async check(user: Pick<User, 'id' | 'email'>, text: string): Promise<'totp' | 'recovery'> {
      await refuseWhileLocked(user.id);
      const stored = await store.twoFactorOf(user.id);
      const secret = stored && seal.open(stored.sealedSecret, `totp:${user.id}`);
      if (secret === undefined) return wrongCode(user.id);
      const code = text.trim();
      if (SIX_DIGITS.test(code)) {
        const step = stepOf(secret, code);
        if (step !== undefined && (await store.takeTotpStep(user.id, step))) return 'totp';
        return wrongCode(user.id);
      }
      const recovery = normalizeRecoveryCode(code);
      if (RECOVERY.test(recovery) && (await store.takeRecoveryCode(user.id, hashCode(recovery), now()))) {
        await record(user, '2fa.recovery-used', { left: await store.recoveryCodesLeft(user.id) });
        return 'recovery';
      }
      return wrongCode(user.id);
    },

    /** Turns two-factor sign-in off: a current code (or a recovery code) is needed. */
    async disable(user: User, code: string): Promise<void> {
      if (!user.twoFactor) return;
      await this.check(user, code);
      if (await store.disableTwoFactor(user.id)) await record(user, '2fa.disable', null);
    },

    recoveryCodesLeft: (user: User) => store.recoveryCodesLeft(user.id),
  };
}

export type TwoFactorService = ReturnType<typeof twoFactorService>;
