import { timingSafeEqual } from 'node:crypto';
import * as openid from 'openid-client';
import { OidcError, toOidcError } from './oidc-errors.ts';

export { OidcError, type OidcErrorKind } from './oidc-errors.ts';

/** What a started sign-in must keep until its callback (e.g. in a signed cookie): plain strings. */
export type OidcPending = { state: string; nonce: string; codeVerifier: string };

export type OidcIdentity = {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
};

export interface OidcClient {
  /** The provider's authorization URL to send the browser to, and what its callback will be checked against. */
  start(): Promise<{ url: string; pending: OidcPending }>;
  /** The identity the provider vouches for; throws OidcError, nothing else. */
  finish(callbackUrl: URL, pending: OidcPending): Promise<OidcIdentity>;
}

export type OidcClientOptions = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** Bound on every HTTP call to the provider (discovery, keys, token, userinfo). */
  timeoutMs?: number;
};

const SCOPE = 'openid email profile';
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Every request to the provider: bounded, its network failures marked `unreachable`, and the token
 * request's redirect_uri the registered one — openid-client would derive it from the callback URL,
 * which behind a proxy may carry another host.
 */
function providerFetch(redirectUri: string, timeoutMs: number): openid.CustomFetch {
  return async (url, init) => {
    if (init.body instanceof URLSearchParams && init.body.get('grant_type') === 'authorization_code') {
      init.body.set('redirect_uri', redirectUri);
    }
    try {
      const signal = init.signal ?? AbortSignal.timeout(timeoutMs);
      // FetchBody's Uint8Array<ArrayBufferLike> is wider than lib.dom's BodyInit; fetch takes it all the same.
      return await fetch(url, { ...init, body: init.body as BodyInit | null | undefined, signal });
    } catch (cause) {
      throw new OidcError('unreachable', 'The identity provider could not be reached.', { cause });
    }
  };
}

/** client_secret_basic (the spec's default) unless the provider announces only client_secret_post. */
function clientAuth(secret: string): openid.ClientAuth {
  const basic = openid.ClientSecretBasic(secret);
  const post = openid.ClientSecretPost(secret);
  return (server, client, body, headers) => {
    const methods = server.token_endpoint_auth_methods_supported;
    const postOnly = methods?.includes('client_secret_post') && !methods.includes('client_secret_basic');
    (postOnly ? post : basic)(server, client, body, headers);
  };
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The claims Snip keeps, from the ID token, completed by userinfo when the ID token carries no email. */
async function identityOf(
  config: openid.Configuration,
  tokens: Awaited<ReturnType<typeof openid.authorizationCodeGrant>>,
): Promise<OidcIdentity> {
  const claims = tokens.claims();
  if (!claims) throw new OidcError('invalid-response', 'The identity provider returned no ID token.');
  let source: Record<string, unknown> = claims;
  if (text(claims.email) === null && config.serverMetadata().userinfo_endpoint) {
    source = await openid.fetchUserInfo(config, tokens.access_token, claims.sub);
  }
  return {
    issuer: claims.iss,
    subject: claims.sub,
    email: text(source.email),
    emailVerified: text(source.email) !== null && source.email_verified === true,
    name: text(source.name) ?? text(claims.name),
  };
}

/** A client of the provider at `issuer`; its endpoints are discovered by its first sign-in. */
export function oidcClient(options: OidcClientOptions): OidcClient {
  const issuer = new URL(options.issuer);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(timeoutMs > 0)) throw new RangeError('timeoutMs must be a positive number of milliseconds');
  let discovered: Promise<openid.Configuration> | undefined;

  // Lazy, cached once it succeeds; a failure is forgotten so the next sign-in tries again.
  const configuration = () => {
    discovered ??= openid
      .discovery(issuer, options.clientId, options.clientSecret, clientAuth(options.clientSecret), {
        [openid.customFetch]: providerFetch(options.redirectUri, timeoutMs),
        timeout: timeoutMs / 1000,
        // Plain http only when the operator configured an http:// issuer (a loopback provider, a test).
        execute: issuer.protocol === 'http:' ? [openid.allowInsecureRequests] : [],
      })
      .catch((error: unknown) => {
        discovered = undefined;
        throw error;
      });
    return discovered;
  };

  return {
    async start() {
      try {
        const config = await configuration();
        const pending = {
          state: openid.randomState(),
          nonce: openid.randomNonce(),
          codeVerifier: openid.randomPKCECodeVerifier(),
        };
        const url = openid.buildAuthorizationUrl(config, {
          redirect_uri: options.redirectUri,
          scope: SCOPE,
          response_type: 'code',
          code_challenge: await openid.calculatePKCECodeChallenge(pending.codeVerifier),
          code_challenge_method: 'S256',
          state: pending.state,
          nonce: pending.nonce,
        });
        return { url: url.href, pending };
      } catch (error) {
        throw toOidcError(error);
      }
    },

    async finish(callbackUrl, pending) {
      const states = callbackUrl.searchParams.getAll('state');
      if (states.length !== 1 || !sameText(states[0] ?? '', pending.state)) {
        throw new OidcError(
          'state-mismatch',
          'The sign-in callback does not match the sign-in that was started.',
        );
      }
      try {
        const config = await configuration();
        const tokens = await openid.authorizationCodeGrant(config, callbackUrl, {
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          pkceCodeVerifier: pending.codeVerifier,
        });
        return await identityOf(config, tokens);
      } catch (error) {
        throw toOidcError(error);
      }
    },
  };
}
