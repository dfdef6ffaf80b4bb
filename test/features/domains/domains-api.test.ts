import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem, callApi, keyWithScopes } from '../../fixtures/api-client.ts';
import { createMultipart, send, startTestApp, type TestApp } from '../../helper.ts';

/** Domains through /api/v1, /create and the link space, one app for the suite (docs/api.md §12). */

const ACME = 'go.acme.example';
const records = new Map<string, string>();
const resolveTxt = async (name: string): Promise<string[][]> => {
  const value = records.get(name);
  if (value === undefined) throw Object.assign(new Error('no record'), { code: 'ENODATA' });
  // DNS may split a long record into strings of 255: the parts make the value.
  return [[value.slice(0, 10), value.slice(10)]];
};

let t: TestApp;

before(async () => {
  t = await startTestApp({ resolveTxt });
});
after(async () => {
  await t.close();
});

const api = (method: string, path: string, body?: unknown, key = t.apiKey) =>
  callApi(t.app, method, path, { key, ...(body === undefined ? {} : { body }) });
const on = (host: string | undefined, url: string, headers: Record<string, string> = {}) =>
  send(t.app, { method: 'GET', url, headers: host === undefined ? headers : { host, ...headers } });

/** Adds a domain of the test's workspace and verifies it through its TXT record. */
async function verified(host: string) {
  const added = await api('POST', '/domains', { host });
  assert.equal(added.status, 201, JSON.stringify(added.body));
  const { record, value } = added.body.verification as { record: string; value: string };
  records.set(record, value);
  const answer = await api('POST', `/domains/${host}/verify`);
  assert.equal(answer.body.verified, true);
  return answer.body;
}

describe('adding and verifying domains', () => {
  it('lists the default domain, shared and verified, with no record to create', async () => {
    const answer = await api('GET', '/domains');
    assert.equal(answer.status, 200);
    const items = answer.body.items as Array<Record<string, unknown>>;
    const first = items[0] as Record<string, unknown>;
    assert.equal(first.host, 'sn.ip');
    assert.equal(first.shared, true);
    assert.equal(first.verified, true);
    assert.equal(first.verification, null);
  });

  it('stores a host in its ASCII form and gives the TXT record that verifies it', async () => {
    const answer = await api('POST', '/domains', { host: 'Pending.Acme.Example.' });
    assert.equal(answer.status, 201);
    assert.equal(answer.body.host, 'pending.acme.example');
    assert.equal(answer.body.verified, false);
    assert.equal(answer.body.shared, false);
    const verification = answer.body.verification as { record: string; value: string };
    assert.equal(verification.record, '_snip-challenge.pending.acme.example');
    assert.match(verification.value, /^snip-verify-[0-9a-f]{32}$/);
    assert.match(String(answer.headers.location), /\/api\/v1\/domains\/pending\.acme\.example$/);
    const idn = await api('POST', '/domains', { host: 'Bücher.example' });
    assert.equal(idn.body.host, 'xn--bcher-kva.example');
  });

  it('refuses hosts that cannot be a domain with 300, and taken ones with 317', async () => {
    const malformed = [
      'go.acme.example:8080',
      '*.acme.example',
      '192.0.2.1',
      '[::1]',
      'localhost',
      `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(60)}.example`,
      'evil.example/go.acme.example',
      '',
      'under_score.example',
    ];
    for (const host of malformed) assertProblem(await api('POST', '/domains', { host }), 400, '300');
    assertProblem(await api('POST', '/domains', { host: 42 }), 400, '300');
    assertProblem(await api('POST', '/domains', { host: 'sn.ip' }), 400, '317');
    assertProblem(await api('POST', '/domains', { host: 'pending.acme.example' }), 400, '317');
  });

  it('verifies only once the TXT record holds the token', async () => {
    const added = await api('POST', '/domains', { host: 'later.acme.example' });
    const early = await api('POST', '/domains/later.acme.example/verify');
    assert.equal(early.status, 200);
    assert.equal(early.body.verified, false);
    const { record, value } = added.body.verification as { record: string; value: string };
    records.set(record, 'snip-verify-not-the-token');
    assert.equal((await api('POST', '/domains/later.acme.example/verify')).body.verified, false);
    records.set(record, value);
    const done = await api('POST', '/domains/later.acme.example/verify');
    assert.equal(done.body.verified, true);
    assert.equal(done.body.verification, null);
  });

  it('needs domains:write to change domains, and any key to list them', async () => {
    const reader = await keyWithScopes(t.store, t.email, ['links:read']);
    assert.equal((await api('GET', '/domains', undefined, reader)).status, 200);
    assertProblem(await api('POST', '/domains', { host: 'x.acme.example' }, reader), 403, '315');
    assertProblem(await api('DELETE', '/domains/later.acme.example', undefined, reader), 403, '315');
  });
});

describe('a code space per domain', () => {
  before(async () => {
    await verified(ACME);
  });

  it('refuses a domain not verified, unknown or malformed with 317', async () => {
    const url = 'https://example.com/pending';
    for (const domain of ['pending.acme.example', 'nowhere.example', 'not a host']) {
      assertProblem(await api('POST', '/links', { url, domain }), 400, '317');
    }
  });

  it('keeps the same slug on two domains, each with its own target and address', async () => {
    const home = await api('POST', '/links', { url: 'https://example.com/home-promo', slug: 'promo' });
    assert.equal(home.status, 201);
    assert.equal(home.body.short_url, 'https://sn.ip/promo');
    assert.equal(home.body.domain, 'sn.ip');
    const acme = await api('POST', '/links', {
      url: 'https://example.com/acme-promo',
      slug: 'promo',
      domain: ACME,
    });
    assert.equal(acme.status, 201, JSON.stringify(acme.body));
    assert.equal(acme.body.short_url, `https://${ACME}/promo`);
    assert.equal(acme.body.qr_code, `https://${ACME}/qrcode/promo.png`);
    assert.equal(acme.body.domain, ACME);
    assert.match(String(acme.headers.location), /\/api\/v1\/links\/promo\?domain=go\.acme\.example$/);
    assertProblem(
      await api('POST', '/links', { url: 'https://example.com/again', slug: 'promo', domain: ACME }),
      409,
      '313',
    );
  });

  it('refuses links to a served domain as loops (305), and takes other hosts and ports', async () => {
    assertProblem(await api('POST', '/links', { url: `https://${ACME}/elsewhere` }), 409, '305');
    assertProblem(await api('POST', '/links', { url: 'https://sn.ip/elsewhere' }), 409, '305');
    // BASE_URL's host on another port, and a domain only claimed, are someone else's pages.
    assert.equal((await api('POST', '/links', { url: 'https://sn.ip:8443/page' })).status, 201);
    assert.equal((await api('POST', '/links', { url: 'https://pending.acme.example/page' })).status, 201);
  });

  it('redirects by the Host header, never by a forwarded one; unknown hosts are 404', async () => {
    assert.equal((await on('sn.ip', '/promo')).headers.location, 'https://example.com/home-promo');
    assert.equal((await on(ACME, '/promo')).headers.location, 'https://example.com/acme-promo');
    assert.equal(
      (await on('GO.Acme.Example.:443', '/promo')).headers.location,
      'https://example.com/acme-promo',
    );
    assert.equal((await on('127.0.0.1:8080', '/promo')).headers.location, 'https://example.com/home-promo');
    const spoofed = await on('unknown.example', '/promo', { 'x-forwarded-host': ACME });
    assert.equal(spoofed.status, 404);
    assert.equal((await on('pending.acme.example', '/promo')).status, 404);
    assert.equal((await on(ACME, '/no-such-code')).status, 404);
  });

  it('addresses, filters and exports links by domain', async () => {
    assert.equal((await api('GET', '/links/promo')).body.long_url, 'https://example.com/home-promo');
    const acme = await api('GET', `/links/promo?domain=${ACME}`);
    assert.equal(acme.body.long_url, 'https://example.com/acme-promo');
    assertProblem(await api('GET', '/links/promo?domain=nowhere.example'), 400, '317');
    const listed = await api('GET', `/links?domain=${ACME}`);
    const hosts = (listed.body.items as Array<{ domain: string }>).map((item) => item.domain);
    assert.ok(hosts.length > 0 && hosts.every((host) => host === ACME));
    const csv = await send(t.app, {
      method: 'GET',
      url: `/api/v1/links.csv?domain=${ACME}`,
      headers: { 'x-api-key': t.apiKey },
    });
    const rows = String(csv.body.raw)
      .split('\r\n')
      .filter((line) => line !== '');
    assert.ok(rows.slice(1).every((line) => line.endsWith(`,${ACME},0,0,`)));
    const patched = await api('PATCH', `/links/promo?domain=${ACME}`, { title: 'Acme promo' });
    assert.equal(patched.body.title, 'Acme promo');
    assert.equal((await api('GET', '/links/promo')).body.title === 'Acme promo', false);
  });

  it('takes the domain on /create, as JSON and in both form encodings, and refuses an unusable one', async () => {
    const json = await send(t.app, {
      method: 'POST',
      url: '/create',
      headers: { 'content-type': 'application/json', 'x-api-key': t.apiKey },
      payload: JSON.stringify({ url: 'https://example.com/create-json', domain: ACME }),
    });
    assert.equal(json.status, 201);
    assert.match(String(json.body.short_url), /^https:\/\/go\.acme\.example\/[0-9A-Za-z]{7}$/);
    const form = await send(t.app, {
      method: 'POST',
      url: '/create',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `apikey=${t.apiKey}&url=${encodeURIComponent('https://example.com/create-form')}&domain=${ACME}`,
    });
    assert.equal(form.status, 201);
    assert.match(String(form.body.short_url), /^https:\/\/go\.acme\.example\//);
    const multipart = await createMultipart(t.app, {
      apikey: t.apiKey,
      url: 'https://example.com/create-multipart',
      domain: ACME,
    });
    assert.equal(multipart.status, 201);
    assert.match(String(multipart.body.short_url), /^https:\/\/go\.acme\.example\//);
    const refused = await send(t.app, {
      method: 'POST',
      url: '/create',
      headers: { 'content-type': 'application/json', 'x-api-key': t.apiKey },
      payload: JSON.stringify({ url: 'https://example.com/create-bad', domain: 'pending.acme.example' }),
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, '317');
  });

  it('draws the QR code of the short URL on its own domain', async () => {
    const image = await on(ACME, '/qrcode/promo.png');
    assert.equal(image.status, 200);
    assert.equal(image.headers['content-type'], 'image/png');
    assert.equal((await on('unknown.example', '/qrcode/promo.png')).status, 404);
  });
});

describe('root and not-found redirects, TLS and removal', () => {
  it('sends / and unknown codes where the domain says; the landing page stays on the default domain', async () => {
    const root = 'https://acme.example/';
    const lost = 'https://acme.example/lost';
    const patched = await api('PATCH', `/domains/${ACME}`, { root_redirect: root, not_found_redirect: lost });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.root_redirect, root);
    assert.equal((await on(ACME, '/')).headers.location, root);
    assert.equal((await on(ACME, '/no-such-code')).headers.location, lost);
    assert.equal((await on('sn.ip', '/')).status, 200);
    assert.equal((await on('later.acme.example', '/')).status, 404);
    assert.equal((await on('unknown.example', '/')).status, 404);
    assertProblem(await api('PATCH', `/domains/${ACME}`, { root_redirect: 'ftp://x' }), 400, '300');
    // Without a root redirect, / is one more path the domain does not know: its not-found redirect.
    const rootless = await api('PATCH', `/domains/${ACME}`, { root_redirect: null, https: false });
    assert.equal(rootless.body.root_redirect, null);
    assert.equal((await on(ACME, '/')).headers.location, lost);
    await api('PATCH', `/domains/${ACME}`, { not_found_redirect: null });
    assert.equal((await on(ACME, '/')).status, 404);
    assert.equal((await api('GET', `/links/promo?domain=${ACME}`)).body.short_url, `http://${ACME}/promo`);
  });

  it('answers the TLS ask: 200 for served hosts, 404 for any other', async () => {
    const ask = (domain: string) =>
      on(undefined, `/.well-known/snip/tls-allowed?domain=${encodeURIComponent(domain)}`);
    assert.equal((await ask(ACME)).status, 200);
    assert.equal((await ask('GO.ACME.EXAMPLE')).status, 200);
    assert.equal((await ask('sn.ip')).status, 200);
    assert.equal((await ask('pending.acme.example')).status, 404);
    assert.equal((await ask('unknown.example')).status, 404);
    assert.equal((await ask('')).status, 404);
    assert.equal((await on(undefined, '/.well-known/snip/tls-allowed')).status, 404);
  });

  it("names BASE_URL's host as a domain even when no added domain could have it", async () => {
    const local = await startTestApp({ env: { BASE_URL: 'http://localhost:8080' } });
    try {
      const ask = (domain: string) =>
        send(local.app, { method: 'GET', url: `/.well-known/snip/tls-allowed?domain=${domain}` });
      assert.equal((await ask('localhost')).status, 200);
      assert.equal((await ask('LOCALHOST.')).status, 200);
      assert.equal((await ask('localhost:8080')).status, 200);
      assert.equal((await ask('otherhost')).status, 404);
      // The link resource's own `domain` names it again, on create and as `?domain=`.
      const body = { url: 'https://example.com/local', domain: 'LOCALHOST' };
      const made = await callApi(local.app, 'POST', '/links', { key: local.apiKey, body });
      assert.equal(made.status, 201);
      assert.equal(made.body.domain, 'localhost:8080', "BASE_URL's authority");
      const path = `/links/${made.body.short_code}?domain=${made.body.domain}`;
      assert.equal((await callApi(local.app, 'GET', path, { key: local.apiKey })).status, 200);
    } finally {
      await local.close();
    }
  });

  it('refuses to remove a domain with live links (318); its codes are never issued there again', async () => {
    assertProblem(await api('DELETE', `/domains/${ACME}`), 409, '318');
    const listed = await api('GET', `/links?domain=${ACME}&limit=100`);
    for (const item of listed.body.items as Array<{ short_code: string }>) {
      assert.equal((await api('DELETE', `/links/${item.short_code}?domain=${ACME}`)).status, 204);
    }
    assert.equal((await api('DELETE', `/domains/${ACME}`)).status, 204);
    assertProblem(await api('DELETE', `/domains/${ACME}`), 404, '314');
    assert.equal((await on(ACME, '/promo')).status, 404);
    await verified(ACME);
    assertProblem(
      await api('POST', '/links', { url: 'https://example.com/reissue', slug: 'promo', domain: ACME }),
      409,
      '313',
    );
    assert.equal((await api('GET', '/links/promo')).body.long_url, 'https://example.com/home-promo');
  });
});
