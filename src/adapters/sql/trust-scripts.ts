/**
 * Two-factor sign-in and changes of email on either dialect (docs/api.md §22): the TwoFactorStore and
 * EmailChangeStore ports, each a script run by the adapter's ScriptRunner.
 */
import type { EmailChangeResult, EmailChangeStore, TwoFactorStore } from '../../core/ports/store.ts';
import type { Row } from './rows.ts';
import { q, type Script, type ScriptRunner } from './script.ts';

function* enableTwoFactor(userId: number, sealed: string, step: number, hashes: string[]): Script<void> {
  yield q('UPDATE users SET totp_secret = ?, totp_last_step = ? WHERE id = ?', sealed, step, userId);
  yield q('DELETE FROM recovery_codes WHERE user_id = ?', userId);
  for (const hash of hashes) {
    yield q('INSERT INTO recovery_codes (user_id, code_hash) VALUES (?, ?)', userId, hash);
  }
}

function* disableTwoFactor(userId: number): Script<boolean> {
  const rows = yield q(
    'UPDATE users SET totp_secret = NULL, totp_last_step = NULL WHERE id = ? AND totp_secret IS NOT NULL RETURNING id',
    userId,
  );
  yield q('DELETE FROM recovery_codes WHERE user_id = ?', userId);
  return rows.length > 0;
}

function* takeEmailChange(tokenHash: Buffer, now: number): Script<EmailChangeResult> {
  const [change] = yield q(
    'SELECT user_id, new_email FROM email_changes WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?',
    tokenHash,
    now,
  );
  if (!change) return { kind: 'gone' };
  const userId = Number(change.user_id);
  const newEmail = String(change.new_email);
  // Checked first, so the unique index never aborts the transaction: the link stays usable.
  if ((yield q('SELECT 1 AS taken FROM users WHERE email = ?', newEmail)).length > 0) {
    return { kind: 'email-taken' };
  }
  const [user] = yield q('SELECT email FROM users WHERE id = ? AND suspended_at IS NULL', userId);
  if (!user) return { kind: 'gone' };
  yield q('UPDATE email_changes SET used_at = ? WHERE user_id = ? AND used_at IS NULL', now, userId);
  yield q('UPDATE users SET email = ?, email_verified = true WHERE id = ?', newEmail, userId);
  // Links mailed to the old address end with it.
  yield q('UPDATE user_tokens SET used_at = ? WHERE user_id = ? AND used_at IS NULL', now, userId);
  return { kind: 'changed', userId, oldEmail: String(user.email), newEmail };
}

export function trustStore({ read, write }: ScriptRunner): TwoFactorStore & EmailChangeStore {
  function* rows(sql: string, ...params: Array<string | number | Buffer>): Script<Row[]> {
    return yield q(sql, ...params);
  }
  return {
    async twoFactorOf(userId) {
      const [row] = await read(rows('SELECT totp_secret, totp_last_step FROM users WHERE id = ?', userId));
      if (!row || row.totp_secret === null || row.totp_secret === undefined) return undefined;
      const last = row.totp_last_step;
      return { sealedSecret: String(row.totp_secret), lastStep: last === null ? null : Number(last) };
    },
    enableTwoFactor: (userId, sealed, step, hashes) => write(enableTwoFactor(userId, sealed, step, hashes)),
    disableTwoFactor: (userId) => write(disableTwoFactor(userId)),
    async takeTotpStep(userId, step) {
      const sql = `UPDATE users SET totp_last_step = ? WHERE id = ? AND totp_secret IS NOT NULL
        AND (totp_last_step IS NULL OR totp_last_step < ?) RETURNING id`;
      return (await write(rows(sql, step, userId, step))).length > 0;
    },
    async takeRecoveryCode(userId, hash, at) {
      const sql = `UPDATE recovery_codes SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL
        RETURNING user_id`;
      return (await write(rows(sql, at, userId, hash))).length > 0;
    },
    async recoveryCodesLeft(userId) {
      const sql = 'SELECT COUNT(*) AS left_over FROM recovery_codes WHERE user_id = ? AND used_at IS NULL';
      const [row] = await read(rows(sql, userId));
      return Number(row?.left_over ?? 0);
    },

    async createEmailChange(tokenHash, userId, newEmail, expiresAt) {
      await write(
        rows(
          'INSERT INTO email_changes (token_hash, user_id, new_email, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
          tokenHash,
          userId,
          newEmail.toLowerCase(),
          Date.now(),
          expiresAt.getTime(),
        ),
      );
    },
    async emailChangeLive(tokenHash, now) {
      const sql =
        'SELECT 1 AS live FROM email_changes WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?';
      return (await read(rows(sql, tokenHash, now.getTime()))).length > 0;
    },
    takeEmailChange: (tokenHash, now) => write(takeEmailChange(tokenHash, now.getTime())),
  };
}
