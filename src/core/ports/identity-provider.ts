/**
 * An OpenID Connect provider as sign-in sees it (SPEC §11): start a sign-in, then turn its callback
 * into the identity the provider vouches for. A port so that the feature never knows the library
 * (adapters/oidc/oidc-client.ts implements it) and holds nothing between the two steps itself.
 */

/** What a started sign-in must keep until its callback (the browser carries it, sealed): plain strings. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface OidcIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  /** True only when the provider vouches for the email (`email_verified: true`). */
  emailVerified: boolean;
  name: string | null;
}

/**
 * Why a sign-in with the provider failed: the callback belongs to no sign-in this browser started
 * (`state-mismatch`), the provider answered with `error=` (`denied`), its answer failed a check — a
 * used code, a nonce, a signature (`invalid-response`) —, or it could not be reached (`unreachable`).
 */
export const IDENTITY_FAILURES = ['state-mismatch', 'denied', 'invalid-response', 'unreachable'] as const;

export type IdentityFailureKind = (typeof IDENTITY_FAILURES)[number];

export interface IdentityProvider {
  /** The provider's authorization URL to send the browser to, and what its callback is checked against. */
  start(): Promise<{ url: string; pending: PendingSignIn }>;
  /** The identity the provider vouches for; rejects only with an Error whose `kind` is an IdentityFailureKind. */
  finish(callbackUrl: URL, pending: PendingSignIn): Promise<OidcIdentity>;
}

/** The kind of a provider's failure, or undefined for anything else (a fault to let through). */
export function identityFailureOf(error: unknown): IdentityFailureKind | undefined {
  if (!(error instanceof Error) || !('kind' in error)) return undefined;
  const { kind } = error as { kind: unknown };
  return IDENTITY_FAILURES.find((known) => known === kind);
}
