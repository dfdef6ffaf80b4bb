import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem, callApi } from '../../fixtures/api-client.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/**
 * The default domain is BASE_URL's authority (docs/api.md §12): with a port that is not the
 * scheme's own, `127.0.0.1:18080` is the host every surface shows and accepts, the way the
 * compatibility clients send it back; the host alone still names it.
 */

const AUTHORITY = '127.0.0.1:18080';
let t: TestApp;
let code: string;

const api = (method: string, path: string, body?: unknown) =>
  callApi(t.app, method, path, { key: t.apiKey, ...(body === undefined ? {} : { body }) });

before(async () => {
  t = await startTestApp({ env: { BASE_URL: `http://${AUTHORITY}` } });
  const made = await api('POST', '/links', { url: 'https://example.com/with-port' });
  assert.equal(made.status, 201);
  code = (made.body as { short_code: string }).short_code;
});
after(() => t.close());

describe('the default domain with a port', () => {
  it('is shown with its port on links and in the domain list', async () => {
    const link = await api('GET', `/links/${code}`);
    assert.equal(link.status, 200);
    assert.equal((link.body as { domain: string }).domain, AUTHORITY);
    assert.equal((link.body as { short_url: string }).short_url, `http://${AUTHORITY}/${code}`);
    const domains = await api('GET', '/domains');
    assert.equal((domains.body as { items: Array<{ host: string }> }).items[0]?.host, AUTHORITY);
  });

  it('is accepted with or without its port', async () => {
    for (const domain of [AUTHORITY, '127.0.0.1']) {
      const made = await api('POST', '/links', { url: `https://example.com/named/${domain}`, domain });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assert.equal((made.body as { domain: string }).domain, AUTHORITY);
      const found = await api('GET', `/links/${code}?domain=${encodeURIComponent(domain)}`);
      assert.equal(found.status, 200);
    }
  });

  it('serves its links whether the Host carries the port or not', async () => {
    for (const host of [AUTHORITY, '127.0.0.1']) {
      const answer = await t.app.inject({ method: 'GET', url: `/${code}`, headers: { host } });
      assert.equal(answer.statusCode, 302, host);
    }
  });

  it('answers YOURLS expand and url-stats for the full short URL it printed', async () => {
    const shorturl = `http://${AUTHORITY}/${code}`;
    for (const action of ['expand', 'url-stats']) {
      const query = new URLSearchParams({ signature: t.apiKey, action, shorturl, format: 'json' });
      const answer = await t.app.inject({ method: 'GET', url: `/yourls-api.php?${query}` });
      assert.equal(answer.statusCode, 200, `${action}: ${answer.body}`);
    }
  });

  it("takes Kutt's domain with its port, and lists it for Shlink's web UI", async () => {
    const kutt = await t.app.inject({
      method: 'POST',
      url: '/api/v2/links',
      headers: { 'x-api-key': t.apiKey },
      payload: { target: 'https://example.com/kutt-port', domain: AUTHORITY },
    });
    assert.equal(kutt.statusCode, 201, kutt.body);
    const shlink = await t.app.inject({
      method: 'GET',
      url: '/rest/v3/domains',
      headers: { 'x-api-key': t.apiKey },
    });
    assert.equal(shlink.statusCode, 200);
    const listed = shlink.json() as { domains: { data: Array<{ domain: string; isDefault: boolean }> } };
    assert.deepEqual(
      listed.domains.data.filter((one) => one.isDefault).map((one) => one.domain),
      [AUTHORITY],
    );
  });
});

describe('the host of BASE_URL alone', () => {
  it('cannot be added as a domain of its own', async () => {
    const named = await startTestApp({ env: { BASE_URL: 'https://sho.rt:8443' } });
    try {
      const added = await callApi(named.app, 'POST', '/domains', {
        key: named.apiKey,
        body: { host: 'sho.rt' },
      });
      assertProblem(added, 400, '317');
    } finally {
      await named.close();
    }
  });
});
