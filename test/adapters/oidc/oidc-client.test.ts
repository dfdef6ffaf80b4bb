import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { OidcError, type OidcErrorKind, oidcClient } from '../../../src/adapters/oidc/oidc-client.ts';
import { closedPort } from '../../fixtures/closed-port.ts';
import { type OidcProviderFixture, startOidcProvider } from '../../fixtures/oidc-provider.ts';

const CLIENT = { clientId: 'snip', clientSecret: 'a-long-enough-client-secret-for-tests' };
// Never contacted: the fixture stops at the provider's redirect to it.
const REDIRECT_URI = 'http://127.0.0.1/auth/oidc/callback';
const ACCOUNTS = {
  ada: { email: 'ada@example.com', email_verified: true, name: 'Ada Lovelace' },
  bob: { email: 'bob@example.com', email_verified: false },
};

const startProvider = (port?: number) =>
  startOidcProvider({ ...CLIENT, redirectUris: [REDIRECT_URI], accounts: ACCOUNTS, port });

const clientOf = (issuer: string, timeoutMs?: number) =>
  oidcClient({ issuer, ...CLIENT, redirectUri: REDIRECT_URI, timeoutMs });

async function assertKind(work: Promise<unknown>, kind: OidcErrorKind): Promise<void> {
  const error = await work.then(
    () => assert.fail(`expected an OidcError '${kind}'`),
    (error: unknown) => error,
  );
  assert.ok(error instanceof OidcError, `a raw error escaped: ${String(error)}`);
  assert.equal(error.kind, kind);
}

/** A loopback server that accepts connections and never answers. */
async function silentServer(): Promise<Server> {
  const server = createServer(() => {}).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

describe('oidcClient against a real OpenID provider on loopback', () => {
  let provider: OidcProviderFixture;
  before(async () => {
    provider = await startProvider();
  });
  after(() => provider.close());

  it('signs a user in and returns the issuer, subject, email, verification and name', async () => {
    const client = clientOf(provider.issuer);
    const { url, pending } = await client.start();
    const callback = await provider.signIn(url, 'ada');
    assert.deepEqual(await client.finish(callback, pending), {
      issuer: provider.issuer,
      subject: 'ada',
      email: 'ada@example.com',
      emailVerified: true,
      name: 'Ada Lovelace',
    });
  });

  it('asks for openid email profile with an S256 code challenge, a state and a nonce', async () => {
    const { url, pending } = await clientOf(provider.issuer).start();
    const query = new URL(url).searchParams;
    assert.ok(url.startsWith(`${provider.issuer}/`));
    assert.equal(query.get('response_type'), 'code');
    assert.equal(query.get('client_id'), CLIENT.clientId);
    assert.equal(query.get('redirect_uri'), REDIRECT_URI);
    assert.equal(query.get('scope'), 'openid email profile');
    assert.equal(query.get('code_challenge_method'), 'S256');
    assert.equal(
      query.get('code_challenge'),
      createHash('sha256').update(pending.codeVerifier).digest('base64url'),
    );
    assert.equal(query.get('state'), pending.state);
    assert.equal(query.get('nonce'), pending.nonce);
  });

  it('starts every sign-in with its own state, nonce and code verifier', async () => {
    const client = clientOf(provider.issuer);
    const [first, second] = await Promise.all([client.start(), client.start()]);
    assert.notEqual(first.pending.state, second.pending.state);
    assert.notEqual(first.pending.nonce, second.pending.nonce);
    assert.notEqual(first.pending.codeVerifier, second.pending.codeVerifier);
  });

  it('rejects a callback whose state is not the one started with state-mismatch', async () => {
    const client = clientOf(provider.issuer);
    const { url, pending } = await client.start();
    const callback = await provider.signIn(url, 'ada');
    callback.searchParams.set('state', 'forged');
    await assertKind(client.finish(callback, pending), 'state-mismatch');
  });

  it('rejects a callback without a state with state-mismatch', async () => {
    const client = clientOf(provider.issuer);
    const { url, pending } = await client.start();
    const callback = await provider.signIn(url, 'ada');
    callback.searchParams.delete('state');
    await assertKind(client.finish(callback, pending), 'state-mismatch');
  });

  it('rejects the same callback used twice with invalid-response', async () => {
    const client = clientOf(provider.issuer);
    const { url, pending } = await client.start();
    const callback = await provider.signIn(url, 'ada');
    await client.finish(callback, pending);
    await assertKind(client.finish(callback, pending), 'invalid-response');
  });

  it('rejects an ID token carrying another nonce with invalid-response', async () => {
    const client = clientOf(provider.issuer);
    const { url, pending } = await client.start();
    const callback = await provider.signIn(url, 'ada');
    await assertKind(client.finish(callback, { ...pending, nonce: 'another-nonce' }), 'invalid-response');
  });

  it('rejects a code redeemed with another code verifier with invalid-response', async () => {
    const client = clientOf(provider.issuer);
    const { url, pending } = await client.start();
    const other = await client.start();
    const callback = await provider.signIn(url, 'ada');
    await assertKind(
      client.finish(callback, { ...pending, codeVerifier: other.pending.codeVerifier }),
      'invalid-response',
    );
  });

  it('reports a callback carrying error=access_denied as denied', async () => {
    const client = clientOf(provider.issuer);
    const { url, pending } = await client.start();
    const callback = await provider.deny(url);
    assert.equal(callback.searchParams.get('error'), 'access_denied');
    await assertKind(client.finish(callback, pending), 'denied');
  });

  it('reports an email the provider has not verified as unverified', async () => {
    const client = clientOf(provider.issuer);
    const { url, pending } = await client.start();
    const identity = await client.finish(await provider.signIn(url, 'bob'), pending);
    assert.equal(identity.subject, 'bob');
    assert.equal(identity.email, 'bob@example.com');
    assert.equal(identity.emailVerified, false);
    assert.equal(identity.name, null);
  });
});

describe('oidcClient when the provider is out of reach', () => {
  it('reports a closed loopback port as unreachable', { timeout: 5_000 }, async () => {
    const client = clientOf(`http://127.0.0.1:${await closedPort()}`, 1_000);
    await assertKind(client.start(), 'unreachable');
    await assertKind(client.finish(new URL(`${REDIRECT_URI}?code=x&state=s`), pendingOf('s')), 'unreachable');
  });

  it('gives up on a provider that never answers as unreachable', { timeout: 5_000 }, async () => {
    const server = await silentServer();
    try {
      const client = clientOf(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 200);
      await assertKind(client.start(), 'unreachable');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('discovers again after a failure, then keeps what it discovered', { timeout: 10_000 }, async () => {
    const port = await closedPort();
    const client = clientOf(`http://127.0.0.1:${port}`, 1_000);
    await assertKind(client.start(), 'unreachable');
    const provider = await startProvider(port);
    try {
      const { url, pending } = await client.start();
      const identity = await client.finish(await provider.signIn(url, 'ada'), pending);
      assert.equal(identity.subject, 'ada');
    } finally {
      await provider.close();
    }
    // Starting a sign-in needs no request once the provider is known.
    const { url } = await client.start();
    assert.ok(url.startsWith(`http://127.0.0.1:${port}/`));
  });
});

function pendingOf(state: string) {
  return { state, nonce: 'n', codeVerifier: 'v'.repeat(43) };
}
