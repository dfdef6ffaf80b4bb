import type { User } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import { normalizeEmail } from '../../core/plans.ts';
import {
  type IdentityFailureKind,
  type IdentityProvider,
  identityFailureOf,
  type OidcIdentity,
  type PendingSignIn,
} from '../../core/ports/identity-provider.ts';
import type { AccountStore, KeyStore } from '../../core/ports/store.ts';
import { issueAccountKey } from './api-access.ts';
import { type SignupRules, type SignupStore, signupRefusal } from './signup-rules.ts';

/**
 * Sign-in with an OpenID provider (SPEC §11): who an identity the provider vouches for signs in as.
 * A user is found by the issuer's subject; an existing user is linked only through an email the
 * provider has verified — anyone can claim an unverified one, so it must never take over an account;
 * anyone else gets a new user with a personal workspace, as sign-up makes, when the sign-up rules let
 * them (not closed; invited, under SIGNUP=invite; not at a disposable domain). Every refusal is
 * `oidc-failed`, with the words the sign-in page shows.
 */

export interface OidcSignInOptions {
  provider: IdentityProvider;
  store: Pick<
    AccountStore & KeyStore,
    | 'findUserByIdentity'
    | 'findUserByEmail'
    | 'linkIdentity'
    | 'setEmailVerified'
    | 'findPlanByName'
    | 'createAccount'
    | 'replaceMainKey'
  > &
    SignupStore;
  signup: SignupRules;
  now?: () => number;
}

/** A provider out of reach may be back soon: the page says so with Retry-After. */
export const PROVIDER_RETRY_SECONDS = 30;

const FAILURES: Readonly<Record<IdentityFailureKind, string>> = {
  'state-mismatch': 'This sign-in was not started here, or was already used. Start again.',
  denied: 'The identity provider did not sign you in.',
  'invalid-response': 'The identity provider’s answer could not be trusted. Start again.',
  unreachable: 'The identity provider cannot be reached right now. Try again shortly.',
};

const refused = (reason: string) => new Refusal('oidc-failed', reason);

/** A provider's failure as the page's refusal; anything else is a fault and goes on. */
function providerRefusal(error: unknown): Refusal {
  const kind = identityFailureOf(error);
  if (kind === undefined) throw error;
  const facts = kind === 'unreachable' ? { retryAfterSeconds: PROVIDER_RETRY_SECONDS } : {};
  return new Refusal('oidc-failed', FAILURES[kind], facts);
}

/** A new user of the sign-up plan with their personal workspace, its main key, and the identity linked. */
async function newUser(options: OidcSignInOptions, identity: OidcIdentity, email: string): Promise<User> {
  const { store } = options;
  const plan = await store.findPlanByName(options.signup.plan);
  if (!plan)
    throw refused('Sign-up is not available: the plan for new accounts does not exist. Tell the operator.');
  const created = await store.createAccount(email, plan.id, null, identity.emailVerified);
  // Only a sign-up racing this one for the same email gets here: the next attempt links or refuses.
  if (created.kind === 'email-taken') throw refused('An account with this email was just made. Start again.');
  const { user, workspace } = created.account;
  await issueAccountKey(store, workspace.id, user.id);
  await store.linkIdentity(user.id, identity.issuer, identity.subject);
  return user;
}

/**
 * The matching rule, in order: the linked user, a verified email's user (linked now), or a new user —
 * who, under SIGNUP=invite, must come through an invitation link (its token) made for their email.
 */
async function userFor(
  options: OidcSignInOptions,
  identity: OidcIdentity,
  invitationToken?: string,
): Promise<User> {
  const { store } = options;
  const linked = await store.findUserByIdentity(identity.issuer, identity.subject);
  const email = identity.email === null ? undefined : normalizeEmail(identity.email);
  const existing = linked ?? (email === undefined ? undefined : await store.findUserByEmail(email));
  if (existing?.suspendedAt) throw refused('This account is suspended: ask the operator of this Snip.');
  if (linked) return linked;
  if (existing) {
    if (!identity.emailVerified) {
      throw refused(
        'An account with this email exists, and the identity provider does not vouch for the email. ' +
          'Sign in with your password.',
      );
    }
    await store.linkIdentity(existing.id, identity.issuer, identity.subject);
    // The provider has just vouched for the very address the account was made with.
    if (!existing.emailVerified) await store.setEmailVerified(existing.id);
    return { ...existing, emailVerified: true };
  }
  if (options.signup.mode === 'closed') {
    throw refused('Sign-up is closed on this Snip: ask its operator for an account.');
  }
  if (email === undefined) {
    throw refused('The identity provider shared no email address, and a new account needs one.');
  }
  const now = options.now ?? Date.now;
  const refusal = await signupRefusal(store, options.signup, email, invitationToken, now());
  // The page answers every refusal here as oidc-failed, with the reason in its words.
  if (refusal) throw refused(refusal.message);
  return newUser(options, identity, email);
}

export function oidcSignIn(options: OidcSignInOptions) {
  const { provider } = options;
  return {
    /** Where to send the browser, and what its callback must match (kept by the browser, sealed). */
    async start(): Promise<{ url: string; pending: PendingSignIn }> {
      try {
        return await provider.start();
      } catch (error) {
        throw providerRefusal(error);
      }
    },

    /**
     * The user the callback signs in, or a Refusal('oidc-failed'). The invitation token is that of the
     * invitation link the sign-in started from, if any.
     */
    async finish(callbackUrl: URL, pending: PendingSignIn, invitationToken?: string): Promise<User> {
      let identity: OidcIdentity;
      try {
        identity = await provider.finish(callbackUrl, pending);
      } catch (error) {
        throw providerRefusal(error);
      }
      return userFor(options, identity, invitationToken);
    },

    userFor: (identity: OidcIdentity, invitationToken?: string) =>
      userFor(options, identity, invitationToken),
  };
}

export type OidcSignIn = ReturnType<typeof oidcSignIn>;
