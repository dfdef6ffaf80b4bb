import { Refusal } from '../../core/errors.ts';
import { hashLinkToken, isLinkToken } from '../../core/link-token.ts';
import type { InvitationStore } from '../../core/ports/store.ts';
import { isDisposableEmail } from './disposable-domains.ts';
import { isPending } from './invitations.ts';

/**
 * Who may make a new account (SPEC §13, sign-up hygiene), by password or by a first OpenID sign-in:
 * anyone (`open`), only the person an invitation link was made for (`invite`), or nobody (`closed`);
 * and, unless switched off, nobody at a disposable email domain.
 */

/** SIGNUP: who may sign up. */
export type SignupMode = 'open' | 'invite' | 'closed';

/** The sign-up settings: SIGNUP, SIGNUP_PLAN and SIGNUP_BLOCK_DISPOSABLE. */
export interface SignupRules {
  mode: SignupMode;
  /** The plan a new account gets. */
  plan: string;
  /** Refuse addresses at disposable email domains. */
  blockDisposable: boolean;
}

/** What the rules need of the store: the invitation a link names. */
export type SignupStore = Pick<InvitationStore, 'findInvitationByHash'>;

const INVITATION_PATH = /^\/invitations\/([^/?#]+)$/;

/** The invitation token of a `next` path that is an invitation page, else undefined. */
export function invitationTokenOf(next: string | undefined): string | undefined {
  return next === undefined ? undefined : INVITATION_PATH.exec(next)?.[1];
}

/** True when the token names an invitation for this (normalised) email that is neither used, revoked nor expired. */
async function invited(store: SignupStore, email: string, token: string | undefined, now: number) {
  if (!isLinkToken(token)) return false;
  const invitation = await store.findInvitationByHash(hashLinkToken(token));
  return invitation !== undefined && invitation.email === email && isPending(invitation, now);
}

/**
 * Why this (normalised) email may not make an account now, or undefined when it may. Under `invite`
 * the sign-up must come through the invitation link (its token), made for this very email.
 */
export async function signupRefusal(
  store: SignupStore,
  rules: SignupRules,
  email: string,
  invitationToken: string | undefined,
  now: number,
): Promise<Refusal | undefined> {
  if (rules.mode === 'closed') return new Refusal('signup-closed');
  // Checked before the invitation: an invited address at a disposable domain is refused all the same.
  if (rules.blockDisposable && isDisposableEmail(email)) {
    return new Refusal(
      'email-disposable',
      'Addresses at disposable email services are not accepted here. Use a lasting address.',
    );
  }
  if (rules.mode === 'invite' && !(await invited(store, email, invitationToken, now))) {
    return new Refusal(
      'signup-closed',
      'Sign-up here is by invitation: open the invitation link you were sent, for the email it names.',
    );
  }
  return undefined;
}
