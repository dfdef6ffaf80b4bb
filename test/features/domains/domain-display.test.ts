/**
 * How hosts are typed and read (docs/api.md §12): a host pasted as `https://host/` is that host
 * in the API and on the Domains page, anything more of a URL is still 300; the page shows an
 * internationalized host in Unicode with its ASCII form beside, and an unverified domain in the
 * neutral notice style, never the green of a success.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem, callApi } from '../../fixtures/api-client.ts';
import { attribute, PageClient } from '../../fixtures/page-client.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t?.close();
});

describe('a host typed as a URL', () => {
  const add = (host: string) => callApi(t.app, 'POST', '/domains', { key: t.apiKey, body: { host } });

  it('is its host in the API once the scheme and trailing slash are dropped', async () => {
    const added = await add('https://Typed.Example/');
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.equal(added.body.host, 'typed.example');
    assertProblem(await add('http://typed.example'), 400, '317');
    assert.equal((await add('plain.example/')).body.host, 'plain.example');
    const got = await callApi(t.app, 'GET', '/domains/typed.example', { key: t.apiKey });
    assert.equal(got.status, 200);
  });

  it('is still refused with 300 when it holds a path, user info, a port or another scheme', async () => {
    for (const host of [
      'https://evil.example/typed.example',
      'https://ada@typed2.example/',
      'https://typed2.example:8443/',
      'ftp://typed2.example',
      'https://',
    ]) {
      assertProblem(await add(host), 400, '300');
    }
  });
});

describe('the Domains page', () => {
  const client = () => new PageClient(t.app);

  it('adds a host pasted as a URL, and shows an IDN in Unicode with its ASCII form beside', async () => {
    const page = client();
    assert.equal((await page.signUp('idn@example.com')).statusCode, 303);
    await page.open(page.at('/domains'));
    const added = await page.post(page.at('/domains'), { host: 'https://Bücher.Example/' });
    assert.equal(added.statusCode, 303);
    const shown = await page.open(page.at('/domains'));
    const card = /<section class="card" data-domain="xn--bcher-kva\.example"[\s\S]*?<\/section>/.exec(
      shown.body,
    )?.[0];
    assert.ok(card, 'the domain’s card');
    assert.match(
      card,
      /<h2 id="[^"]+">bücher\.example <span class="hint" data-ascii>xn--bcher-kva\.example<\/span><\/h2>/,
    );
    assert.match(
      card,
      /<code[^>]*data-txt-name>_snip-challenge\.xn--bcher-kva\.example<\/code>/,
      'DNS names stay ASCII',
    );
  });

  it('shows an unverified domain in the neutral notice, not the green box of a success', async () => {
    const page = client();
    await page.signUp('pending@example.com');
    await page.open(page.at('/domains'));
    await page.post(page.at('/domains'), { host: 'pending.example' });
    const shown = await page.open(page.at('/domains'));
    assert.match(shown.body, /<div class="notice" data-state="verification">/);
    assert.doesNotMatch(shown.body, /fresh-key/);
  });

  it('refuses a pasted URL with a path as 300 and keeps what was typed', async () => {
    const page = client();
    await page.signUp('path@example.com');
    await page.open(page.at('/domains'));
    const refused = await page.post(page.at('/domains'), { host: 'https://path.example/go' });
    assert.equal(refused.statusCode, 400);
    assert.equal(attribute(refused.body, 'data-error'), '300');
    assert.match(refused.body, /value="https:\/\/path\.example\/go"/);
  });
});

describe('the link forms', () => {
  it('offer an internationalized domain in Unicode and send its ASCII form', async () => {
    // The workspace's TXT record is found for whatever token its domain was given.
    const tokens = new Map<string, string>();
    const verifying = await startTestApp({
      resolveTxt: async (name) => [[tokens.get(name.replace('_snip-challenge.', '')) ?? '']],
    });
    try {
      const page = new PageClient(verifying.app);
      assert.equal((await page.signUp('forms@example.com')).statusCode, 303);
      await page.open(page.at('/domains'));
      await page.post(page.at('/domains'), { host: 'bücher.example' });
      const [claim] = (await verifying.store.listDomains()).filter(
        (one) => one.host === 'xn--bcher-kva.example',
      );
      assert.ok(claim);
      tokens.set(claim.host, claim.verificationToken);
      await page.open(page.at('/domains'));
      assert.equal((await page.post(page.at('/domains/verify'), { host: claim.host })).statusCode, 303);
      for (const path of ['', '/bulk']) {
        const form = await page.open(page.at(path));
        assert.match(
          form.body,
          /<option value="xn--bcher-kva\.example"[^>]*>bücher\.example<\/option>/,
          path,
        );
      }
    } finally {
      await verifying.close();
    }
  });
});
