import { AuthorizationResponseError, ClientError, ResponseBodyError } from 'openid-client';

/**
 * Why an OpenID sign-in failed, in the terms a sign-in page acts on:
 * - `state-mismatch`: the callback does not belong to the sign-in this browser started (forged, stale, crossed);
 * - `denied`: the provider answered the callback with `error=` (the user declined, the provider refused);
 * - `invalid-response`: the provider's answer failed a check (a used or unknown code, a nonce, a signature, an issuer);
 * - `unreachable`: the provider could not be reached or answered in time, or failed on its side (5xx).
 */
export type OidcErrorKind = 'state-mismatch' | 'denied' | 'invalid-response' | 'unreachable';

export class OidcError extends Error {
  readonly kind: OidcErrorKind;

  constructor(kind: OidcErrorKind, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'OidcError';
    this.kind = kind;
  }
}

/** openid-client's codes for a request given up on (the timeout's AbortSignal fired while reading). */
const GIVEN_UP = new Set(['OAUTH_TIMEOUT', 'OAUTH_ABORT']);

const statusOf = (error: unknown): number | undefined => {
  if (error instanceof ResponseBodyError) return error.status;
  return error instanceof Response ? error.status : undefined;
};

/** The first link of an error's cause chain that decides its kind, if any. */
function kindOf(error: unknown): OidcErrorKind | undefined {
  if (error instanceof OidcError) return error.kind;
  if (error instanceof AuthorizationResponseError) return 'denied';
  if (error instanceof ClientError && error.code && GIVEN_UP.has(error.code)) return 'unreachable';
  const status = statusOf(error);
  if (status !== undefined && status >= 500) return 'unreachable';
  return undefined;
}

const MESSAGES: Readonly<Record<OidcErrorKind, string>> = {
  'state-mismatch': 'The sign-in callback does not match the sign-in that was started.',
  denied: 'The identity provider refused the sign-in.',
  'invalid-response': 'The identity provider answered with a response that failed validation.',
  unreachable: 'The identity provider could not be reached.',
};

/** Any failure of openid-client (or of the network under it) as an OidcError; the original kept as `cause`. */
export function toOidcError(error: unknown): OidcError {
  if (error instanceof OidcError) return error;
  let link: unknown = error;
  for (let depth = 0; depth < 5 && link instanceof Error; depth++) {
    if (link instanceof OidcError) return link; // our own fetch's verdict, wrapped by openid-client
    const kind = kindOf(link);
    if (kind === 'denied' && link instanceof AuthorizationResponseError) {
      return new OidcError(kind, `${MESSAGES.denied} (${link.error})`, { cause: error });
    }
    if (kind) return new OidcError(kind, MESSAGES[kind], { cause: error });
    link = link.cause;
  }
  // The cause of a non-conforming HTTP status is the Response itself, not an Error.
  const kind = kindOf(link) ?? 'invalid-response';
  return new OidcError(kind, MESSAGES[kind], { cause: error });
}
