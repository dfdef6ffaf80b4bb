import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { redocForSnip } from '../../../src/features/ops/docs-page.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/** GET /docs as HTTP sees it; test/browser/docs.test.ts opens it in Chromium. */
describe('GET /docs', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  const nonceOf = (policy: string) => /style-src 'self' 'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)?.[1];

  it('answers the reference page with a fresh style nonce in its policy and its markup', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/docs' });
    const second = await t.app.inject({ method: 'GET', url: '/docs' });
    assert.equal(first.statusCode, 200);
    assert.match(String(first.headers['content-type']), /^text\/html/);
    assert.equal(first.headers['cache-control'], 'no-store');
    const policy = String(first.headers['content-security-policy']);
    const nonce = nonceOf(policy);
    assert.ok(nonce, policy);
    assert.notEqual(nonceOf(String(second.headers['content-security-policy'])), nonce);
    assert.ok(first.body.includes(`<meta property="csp-nonce" content="${nonce}">`));
    assert.match(policy, /script-src 'self';/);
    assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval/);
    assert.match(first.body, /<title>Snip API reference<\/title>/);
    assert.match(
      first.body,
      /<script src="\/assets\/docs\.js"><\/script><script src="\/assets\/redoc\.standalone\.js">/,
    );
  });

  it('leaves every other page under the policy without a nonce', async () => {
    for (const url of ['/', '/tester', '/login', '/Zzzzzzz']) {
      const policy = String((await t.app.inject({ method: 'GET', url })).headers['content-security-policy']);
      assert.match(policy, /style-src 'self';/, url);
      assert.doesNotMatch(policy, /nonce-/, url);
    }
  });

  it('serves Redoc from /assets, loading nothing from another host and honouring the nonce', async () => {
    const bundle = await t.app.inject({ method: 'GET', url: '/assets/redoc.standalone.js' });
    assert.equal(bundle.statusCode, 200);
    assert.match(String(bundle.headers['content-type']), /^text\/javascript/);
    assert.ok(!bundle.body.includes('cdn.redoc.ly'));
    assert.ok(bundle.body.includes('r.nc=self.__webpack_nonce__;'));
    for (const name of ['docs.js', 'docs.css']) {
      assert.equal((await t.app.inject({ method: 'GET', url: `/assets/${name}` })).statusCode, 200, name);
    }
  });

  it('refuses a Redoc bundle whose edits no longer apply', () => {
    assert.throws(() => redocForSnip('a bundle without the expected code'), /exactly once/);
  });
});
