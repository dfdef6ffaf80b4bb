import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  createForm,
  createJson,
  createMultipart,
  FakeInspector,
  send,
  startTestApp,
  type TestApp,
} from '../../helper.ts';

/** Every row of docs/api.md §2.3 through inject(), in both encodings, asserting `error` and the HTTP status. */

const ENVELOPE_ERROR_KEYS = ['error', 'message', 'success', 'timestamps'];

function assertRefused(
  answer: { status: number; body: Record<string, unknown> },
  code: string,
  status: number,
) {
  assert.equal(answer.body.error, code, JSON.stringify(answer.body));
  assert.equal(answer.status, status);
  assert.equal(answer.body.success, 'false');
  assert.deepEqual(Object.keys(answer.body).sort(), ENVELOPE_ERROR_KEYS);
  assert.match(String(answer.body.timestamps), /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/);
}

describe('POST /create', () => {
  let t: TestApp;
  let inspector: FakeInspector;
  before(async () => {
    inspector = new FakeInspector();
    t = await startTestApp({ inspector });
  });
  after(() => t.close());
  beforeEach(() => {
    inspector.fetched.length = 0;
    inspector.outcome = (url) => ({ ok: true, title: 'A page', finalUrl: url.href, status: 200 });
  });

  describe('success', () => {
    it('creates a link from JSON with the key in X-API-Key and answers 201 with Location', async () => {
      const answer = await createJson(t.app, t.apiKey, { url: '  https://Example.com/success-json  ' });
      assert.equal(answer.status, 201);
      assert.equal(answer.body.success, 'true');
      assert.equal(answer.body.error, '');
      assert.match(String(answer.body.short_code), /^[0-9A-Za-z]{7}$/);
      assert.equal(answer.body.short_url, `https://sn.ip/${answer.body.short_code}`);
      assert.equal(answer.body.qr_code, `https://sn.ip/qrcode/${answer.body.short_code}.png`);
      assert.equal(answer.body.long_url, 'https://Example.com/success-json');
      assert.equal(answer.body.title, 'A page');
      assert.equal(answer.body.clicks, 0);
      assert.equal(answer.headers.location, answer.body.short_url);
      assert.equal(answer.headers['ratelimit-limit'], '1000');
      assert.deepEqual(Object.keys(answer.body).sort(), [
        'clicks',
        'error',
        'long_url',
        'message',
        'qr_code',
        'short_code',
        'short_url',
        'success',
        'timestamps',
        'title',
      ]);
      for (const [key, value] of Object.entries(answer.body)) {
        assert.equal(typeof value, key === 'clicks' ? 'number' : 'string', key);
      }
    });

    it('creates a link from a urlencoded form with the apikey field', async () => {
      const answer = await createForm(t.app, { apikey: t.apiKey, url: 'https://example.com/success-form' });
      assert.equal(answer.status, 201);
      assert.equal(answer.body.error, '');
    });

    it('creates a link from a multipart form with the apikey field', async () => {
      const answer = await createMultipart(t.app, {
        apikey: t.apiKey,
        url: 'https://example.com/success-multipart',
      });
      assert.equal(answer.status, 201);
      assert.equal(answer.body.error, '');
    });

    it('lets the header key win over the form field', async () => {
      const answer = await send(t.app, {
        method: 'POST',
        url: '/create',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-api-key': t.apiKey },
        payload: new URLSearchParams({ apikey: 'wrong', url: 'https://example.com/header-wins' }).toString(),
      });
      assert.equal(answer.status, 201);
      const refused = await send(t.app, {
        method: 'POST',
        url: '/create',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-api-key': 'wrong' },
        payload: new URLSearchParams({
          apikey: t.apiKey,
          url: 'https://example.com/header-wins-2',
        }).toString(),
      });
      assertRefused(refused, '303', 401);
    });

    it('accepts a key with surrounding whitespace as that key', async () => {
      const answer = await createForm(t.app, {
        apikey: `  ${t.apiKey}\t`,
        url: 'https://example.com/ws-key',
      });
      assert.equal(answer.status, 201);
    });

    it('accepts an IDN host and keeps long_url as sent', async () => {
      const answer = await createJson(t.app, t.apiKey, { url: 'https://bücher.example/straße' });
      assert.equal(answer.status, 201);
      assert.equal(answer.body.long_url, 'https://bücher.example/straße');
      assert.equal(inspector.fetched.at(-1), 'https://xn--bcher-kva.example/stra%C3%9Fe');
    });

    it('answers the target title, "" when the page has none', async () => {
      inspector.outcome = (url) => ({ ok: true, title: '', finalUrl: url.href, status: 200 });
      const answer = await createJson(t.app, t.apiKey, { url: 'https://example.com/untitled' });
      assert.equal(answer.body.title, '');
    });
  });

  describe('order 1: 300 for a body that cannot be read', () => {
    const cases: Array<[string, Record<string, string>, string]> = [
      ['malformed JSON', { 'content-type': 'application/json' }, '{"url": '],
      ['a JSON array', { 'content-type': 'application/json' }, '["https://example.com"]'],
      ['a JSON string', { 'content-type': 'application/json' }, '"https://example.com"'],
      ['JSON null', { 'content-type': 'application/json' }, 'null'],
      ['url as a number', { 'content-type': 'application/json' }, '{"url": 42}'],
      [
        'url as an object',
        { 'content-type': 'application/json' },
        '{"url": {"href": "https://example.com"}}',
      ],
      ['url as null', { 'content-type': 'application/json' }, '{"url": null}'],
      [
        'group as a number',
        { 'content-type': 'application/json' },
        '{"url": "https://example.com", "group": 1}',
      ],
      ['an empty JSON body', { 'content-type': 'application/json' }, ''],
      ['an empty body without Content-Type', {}, ''],
      ['text/plain', { 'content-type': 'text/plain' }, 'url=https://example.com'],
      ['an unknown Content-Type', { 'content-type': 'application/x-snip' }, 'whatever'],
      ['a repeated form field', { 'content-type': 'application/x-www-form-urlencoded' }, 'url=a&url=b'],
      [
        'a 65 KiB JSON body',
        { 'content-type': 'application/json' },
        JSON.stringify({ url: `https://example.com/${'a'.repeat(65 * 1024)}` }),
      ],
      [
        'a 65 KiB form body',
        { 'content-type': 'application/x-www-form-urlencoded' },
        `url=${'a'.repeat(65 * 1024)}`,
      ],
    ];
    for (const [name, headers, payload] of cases) {
      it(`refuses ${name} with 300 before looking at the key`, async () => {
        // No key at all: 300 must win over 301, which proves the order.
        const answer = await send(t.app, { method: 'POST', url: '/create', headers, payload });
        assertRefused(answer, '300', 400);
      });
    }

    it('refuses a 65 KiB multipart body with 300', async () => {
      const answer = await createMultipart(t.app, {
        apikey: t.apiKey,
        url: `https://example.com/${'b'.repeat(65 * 1024)}`,
      });
      assertRefused(answer, '300', 400);
    });

    it('refuses a multipart file part in place of url with 300', async () => {
      const boundary = 'xyz';
      const payload =
        `--${boundary}\r\nContent-Disposition: form-data; name="apikey"\r\n\r\n${t.apiKey}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="url"; filename="u.txt"\r\nContent-Type: text/plain\r\n\r\nhttps://example.com\r\n` +
        `--${boundary}--\r\n`;
      const answer = await send(t.app, {
        method: 'POST',
        url: '/create',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      assertRefused(answer, '300', 400);
    });

    it('refuses a truncated multipart body with 300', async () => {
      const answer = await send(t.app, {
        method: 'POST',
        url: '/create',
        headers: { 'content-type': 'multipart/form-data; boundary=abc' },
        payload: '--abc\r\nContent-Disposition: form-data; name="url"\r\n\r\nhttps://exa',
      });
      assertRefused(answer, '300', 400);
    });
  });

  describe('order 2-3: 301 and 303 for keys', () => {
    it('answers 301 when no key is sent in either encoding', async () => {
      assertRefused(await createJson(t.app, undefined, { url: 'https://example.com/a' }), '301', 401);
      assertRefused(await createForm(t.app, { url: 'https://example.com/a' }), '301', 401);
      assertRefused(await createJson(t.app, '', { url: 'https://example.com/a' }), '301', 401);
    });

    it('never reads the key from the query string or from a JSON body', async () => {
      const inQuery = await send(t.app, {
        method: 'POST',
        url: `/create?apikey=${encodeURIComponent(t.apiKey)}`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ url: 'https://example.com/q' }),
      });
      assertRefused(inQuery, '301', 401);
      assertRefused(
        await createJson(t.app, undefined, { url: 'https://example.com/q', apikey: t.apiKey }),
        '301',
        401,
      );
    });

    it('answers 303 for an unknown key', async () => {
      assertRefused(await createJson(t.app, 'snip_nope', { url: 'https://example.com/a' }), '303', 401);
      assertRefused(
        await createForm(t.app, { apikey: 'snip_nope', url: 'https://example.com/a' }),
        '303',
        401,
      );
    });

    it('answers 303 for a revoked key', async () => {
      const { apiKey: fresh } = await t.ops.createAccount('revoked@example.com', 'tester');
      await t.ops.rotateKey('revoked@example.com');
      assertRefused(await createJson(t.app, fresh, { url: 'https://example.com/revoked' }), '303', 401);
    });

    it('answers 303 when the plan has no API access', async () => {
      const { apiKey } = await t.ops.createAccount('free@example.com', 'free');
      assertRefused(await createJson(t.app, apiKey, { url: 'https://example.com/free' }), '303', 401);
    });

    it('does not send rate-limit headers before the key is accepted', async () => {
      const answer = await createJson(t.app, 'snip_nope', { url: 'https://example.com/a' });
      assert.equal(answer.headers['ratelimit-limit'], undefined);
    });
  });

  describe('order 5-6: 302 and 300 for the url', () => {
    it('answers 302 for an absent, empty or blank url', async () => {
      assertRefused(await createJson(t.app, t.apiKey, {}), '302', 400);
      assertRefused(await createJson(t.app, t.apiKey, { url: '' }), '302', 400);
      assertRefused(await createForm(t.app, { apikey: t.apiKey, url: '   ' }), '302', 400);
      assertRefused(await createMultipart(t.app, { apikey: t.apiKey }), '302', 400);
    });

    const invalid: Array<[string, string]> = [
      ['a javascript: URL', 'javascript:alert(1)'],
      ['an ftp: URL', 'ftp://example.com/file'],
      ['a relative URL', '/just/a/path'],
      ['a scheme-relative URL', '//example.com/x'],
      ['a bare host', 'example.com'],
      ['a URL with credentials', 'https://user:secret@example.com/'],
      ['a URL with only a user', 'https://user@example.com/'],
      ['a data: URL', 'data:text/html,<b>x</b>'],
      ['an http URL without host', 'http:///path'],
      ['a URL with inner spaces', 'https://exa mple.com/'],
      [
        'a URL of 2,049 characters',
        `https://example.com/${'a'.repeat(2049 - 'https://example.com/'.length)}`,
      ],
    ];
    for (const [name, url] of invalid) {
      it(`answers 300 for ${name}`, async () => {
        assertRefused(await createJson(t.app, t.apiKey, { url }), '300', 400);
      });
    }

    it('accepts a URL of exactly 2,048 characters', async () => {
      const url = `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`;
      assert.equal((await createJson(t.app, t.apiKey, { url })).status, 201);
    });

    it('sends rate-limit headers on refusals after the key is accepted', async () => {
      const answer = await createJson(t.app, t.apiKey, { url: 'ftp://example.com' });
      assert.equal(answer.headers['ratelimit-limit'], '1000');
      assert.ok(Number(answer.headers['ratelimit-reset']) > 0);
    });
  });

  describe('order 7-10 and the checks before any fetch', () => {
    it('answers 312 for an unknown group and a group of another account, 201 by ID or API identifier', async () => {
      const own = await t.ops.createGroup(t.email, 'Spring Sale');
      await t.ops.createAccount('other@example.com', 'tester');
      const foreign = await t.ops.createGroup('other@example.com', 'Theirs');
      assertRefused(
        await createJson(t.app, t.apiKey, { url: 'https://example.com/g1', group: 'nope' }),
        '312',
        422,
      );
      assertRefused(
        await createJson(t.app, t.apiKey, { url: 'https://example.com/g1', group: String(foreign.id) }),
        '312',
        422,
      );
      assertRefused(
        await createJson(t.app, t.apiKey, { url: 'https://example.com/g1', group: foreign.apiId }),
        '312',
        422,
      );
      assert.equal(
        (await createJson(t.app, t.apiKey, { url: 'https://example.com/g1', group: String(own.id) })).status,
        201,
      );
      assert.equal(
        (await createForm(t.app, { apikey: t.apiKey, url: 'https://example.com/g2', group: own.apiId }))
          .status,
        201,
      );
      assert.equal(inspector.fetched.filter((u) => u.includes('/g1')).length, 1);
    });

    it('answers 310 for social networks and their subdomains, not for look-alikes', async () => {
      for (const url of [
        'https://x.com/someone',
        'https://www.facebook.com/page',
        'https://M.Reddit.com/r/x',
        'http://t.co/abc',
      ]) {
        assertRefused(await createJson(t.app, t.apiKey, { url }), '310', 422);
      }
      assert.equal((await createJson(t.app, t.apiKey, { url: 'https://netflix.com/' })).status, 201);
      assert.equal((await createJson(t.app, t.apiKey, { url: 'https://notx.com/' })).status, 201);
      assert.equal(
        inspector.fetched.some((u) => u.includes('facebook')),
        false,
      );
    });

    it('answers 312 before 310 (group is checked first)', async () => {
      assertRefused(
        await createJson(t.app, t.apiKey, { url: 'https://x.com/a', group: 'missing' }),
        '312',
        422,
      );
    });

    it('answers 305 with Location for a second link to the same normalized URL, without fetching', async () => {
      const first = await createJson(t.app, t.apiKey, { url: 'https://example.com/dup?q=1#f' });
      assert.equal(first.status, 201);
      const fetches = inspector.fetched.length;
      for (const url of ['HTTPS://EXAMPLE.COM:443/dup?q=1#f', 'https://example.com/dup?q=1#f']) {
        const again = await createJson(t.app, t.apiKey, { url });
        assertRefused(again, '305', 409);
        assert.equal(again.headers.location, first.body.short_url);
      }
      assert.equal(inspector.fetched.length, fetches);
      assert.equal((await createJson(t.app, t.apiKey, { url: 'https://example.com/dup?q=2#f' })).status, 201);
      assert.equal((await createJson(t.app, t.apiKey, { url: 'https://example.com/Dup?q=1#f' })).status, 201);
    });

    it('treats an empty path as / for duplicates', async () => {
      assert.equal((await createJson(t.app, t.apiKey, { url: 'http://empty-path.example' })).status, 201);
      assertRefused(await createJson(t.app, t.apiKey, { url: 'http://empty-path.example/' }), '305', 409);
    });

    it("answers 305 without Location for a URL on Snip's own host", async () => {
      const answer = await createJson(t.app, t.apiKey, { url: 'https://sn.ip/abcdefg' });
      assertRefused(answer, '305', 409);
      assert.equal(answer.headers.location, undefined);
    });
  });

  describe('order 11-15: what the target inspection finds', () => {
    for (const code of ['306', '307', '308', '309', '311'] as const) {
      it(`answers ${code} with 422 when inspection says so`, async () => {
        inspector.outcome = () => ({ ok: false, code, reason: 'test' });
        assertRefused(
          await createJson(t.app, t.apiKey, { url: `https://example.com/inspect-${code}` }),
          code,
          422,
        );
      });
    }
  });
});

describe('POST /create with HTTP_STATUS_MODE=always-200', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { HTTP_STATUS_MODE: 'always-200' } });
  });
  after(() => t.close());

  it('answers every outcome with HTTP 200 and tells it in the body', async () => {
    const created = await createJson(t.app, t.apiKey, { url: 'https://example.com/200' });
    assert.equal(created.status, 200);
    assert.equal(created.body.success, 'true');
    const refused = await createJson(t.app, undefined, { url: 'https://example.com/200' });
    assert.equal(refused.status, 200);
    assert.equal(refused.body.error, '301');
    const malformed = await send(t.app, {
      method: 'POST',
      url: '/create',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    assert.equal(malformed.status, 200);
    assert.equal(malformed.body.error, '300');
  });
});

describe('POST /create timestamps', () => {
  it('formats timestamps in TIMESTAMP_TZ', async () => {
    const at = Date.UTC(2026, 0, 31, 23, 59, 58);
    const t = await startTestApp({ env: { TIMESTAMP_TZ: 'Asia/Tokyo' }, now: () => at });
    try {
      const answer = await createJson(t.app, undefined, {});
      assert.equal(answer.body.timestamps, '2026/02/01 08:59:58');
    } finally {
      await t.close();
    }
  });
});
