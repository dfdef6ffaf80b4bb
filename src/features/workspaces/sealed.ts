import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Small secrets sealed with AES-256-GCM under a key every instance shares, each bound to what it is
 * for (`totp:<user>`, `setup:<user>`): a sealed value copied to another purpose or user does not open.
 * Stored as `v1.<iv>.<tag>.<ciphertext>`, base64url.
 */
export function sealer(key: Buffer) {
  return {
    seal(text: string, purpose: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(purpose));
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
    },

    /** The text sealed for that purpose; undefined for anything else. */
    open(sealed: string, purpose: string): string | undefined {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(Buffer.from(purpose));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        return undefined;
      }
    },
  };
}

export type Sealer = ReturnType<typeof sealer>;

/**
 * The pending step of a sign-in with two-factor on (docs/api.md §22): the password was right, a code
 * is still owed. Not a session: a signed `<user>.<expiry>.<signature>` held in a cookie for five
 * minutes, which opens nothing but the code form.
 */
export const PENDING_SIGN_IN_S = 300;

export function pendingSignIns(key: Buffer, now: () => number) {
  const sign = (body: string) => createHmac('sha256', key).update(`snip-2fa:${body}`).digest('base64url');
  return {
    issue(userId: number): string {
      const body = `${userId}.${Math.floor(now() / 1000) + PENDING_SIGN_IN_S}`;
      return `${body}.${sign(body)}`;
    },
    /** The user a live pending sign-in names; undefined for an expired, forged or malformed one. */
    userOf(token: string | undefined): number | undefined {
      const match = token === undefined ? null : /^(\d{1,15})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
      if (!match) return undefined;
      const [, user, expiry, signature] = match as unknown as [string, string, string, string];
      const expected = Buffer.from(sign(`${user}.${expiry}`));
      if (!timingSafeEqual(expected, Buffer.from(signature))) return undefined;
      return Number(expiry) * 1000 > now() ? Number(user) : undefined;
    },
  };
}

export type PendingSignIns = ReturnType<typeof pendingSignIns>;
