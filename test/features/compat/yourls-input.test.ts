import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { readXml } from '../../fixtures/sharex/yourls-xml-reader.ts';
import { hangingStore, startTestApp, type TestApp } from '../../helper.ts';

/** yourls-api.php given what nobody should send: every answer in YOURLS's form, never a 500. */

let t: TestApp;

function raw(query: string, options: Partial<InjectOptions> = {}) {
  return t.app.inject({ method: 'GET', url: `/yourls-api.php?signature=${t.apiKey}&${query}`, ...options });
}

before(async () => {
  t = await startTestApp();
});
after(() => t.close());

describe('YOURLS actions and formats it does not know', () => {
  it('answers an unknown or missing action with 400 in the format asked', async () => {
    for (const query of ['action=nope&format=json', 'format=json', 'action[]=version&format=json']) {
      const answer = await raw(query);
      assert.equal(answer.statusCode, 400, query);
      assert.deepEqual(answer.json(), { errorCode: '400', message: 'Unknown or missing "action" parameter' });
    }
    const xml = await raw('action=nope');
    assert.equal(xml.statusCode, 400);
    assert.equal((readXml(xml.body).value as Record<string, string>).errorCode, '400');
    const simple = await raw('action=nope&format=simple');
    assert.deepEqual([simple.statusCode, simple.body], [400, 'Unknown or missing "action" parameter']);
  });

  it('answers an unknown format as simple text, as YOURLS falls through to it', async () => {
    for (const format of ['JSON', 'yaml', '']) {
      const answer = await raw(`action=version&format=${format}`);
      assert.equal(answer.statusCode, 200);
      assert.match(String(answer.headers['content-type']), /^text\/plain/);
      assert.match(answer.body, /^\d+\.\d+\.\d+/);
    }
  });
});

describe('YOURLS JSONP callbacks', () => {
  it('refuses a callback that is not a plain name path, never writing it back', async () => {
    const hostile = ['alert(1)//', 'a;b', 'cb\\u2028', 'u00e9', 'x y', '', '<script>'];
    for (const callback of hostile) {
      const answer = await raw(`action=version&format=jsonp&callback=${encodeURIComponent(callback)}`);
      assert.equal(answer.statusCode, 400, callback);
      assert.match(String(answer.headers['content-type']), /^application\/javascript/);
      assert.deepEqual(answer.json(), { errorCode: '400', error: 'Invalid callback parameter' });
    }
    const json = await raw('action=version&format=json&callback=alert(1)//');
    assert.equal(json.json().callback, undefined);
  });

  it('calls a valid callback, given as callback or jsonp, and echoes it as YOURLS does', async () => {
    const answer = await raw('action=version&format=jsonp&jsonp=window.app.$got_1');
    assert.equal(answer.statusCode, 200);
    const inner = /^window\.app\.\$got_1\((.*)\)$/.exec(answer.body)?.[1];
    assert.ok(inner, answer.body);
    assert.equal(JSON.parse(inner).callback, 'window.app.$got_1');
    assert.equal((await raw('action=version&format=jsonp')).body.startsWith('({"version":'), true);
  });
});

describe('YOURLS XML of hostile text', () => {
  it('escapes a title of markup, entities, quotes and CDATA ends into well-formed XML', async () => {
    const title = `<script>alert("x")</script> & &amp; 'q' ]]> <![CDATA[ é 😀`;
    const made = await raw(
      `action=shorturl&url=https://example.com/hostile&keyword=hostile&title=${encodeURIComponent(title)}`,
    );
    assert.equal(made.statusCode, 200, made.body);
    assert.ok(!made.body.includes('<script>'));
    const doc = readXml(made.body).value as Record<string, unknown>;
    assert.equal(doc.title, title);
    assert.equal((doc.url as Record<string, string>).title, title);
    const stats = readXml((await raw('action=url-stats&shorturl=hostile')).body).value as Record<
      string,
      Record<string, string>
    >;
    assert.equal(stats.link?.title, title);
  });
});

describe('YOURLS parameters of the wrong shape', () => {
  it('takes the last of a repeated parameter, as PHP does, and the body over the query', async () => {
    const answer = await raw(
      'action=shorturl&format=json&url=https://example.com/first&url=https://example.com/second',
    );
    assert.equal(answer.json().url.url, 'https://example.com/second');
    const form = await raw('action=shorturl&format=json&url=https://example.com/query', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'url=https%3A%2F%2Fexample.com%2Fbody',
    });
    assert.equal(form.json().url.url, 'https://example.com/body');
  });

  it('answers bodies and characters it cannot read in YOURLS form, never a 500', async () => {
    const odd: Array<[string, Partial<InjectOptions>]> = [
      ['action=version&format=json&title=%00', {}],
      ['action=shorturl&format=json&url[]=https://example.com/a&url[]=https://example.com/b', {}],
      ['action=stats&format=json&limit=1e999&start=-9', {}],
      ['action=expand&format=json&shorturl=https://sn.ip/%E0%A4%A', {}],
      ['action=expand&format=json&shorturl=https://[::1', {}],
      [
        'action=version&format=json',
        { method: 'POST', headers: { 'content-type': 'application/json' }, payload: '{' },
      ],
      [
        'action=version&format=json',
        { method: 'POST', headers: { 'content-type': 'text/plain' }, payload: 'x' },
      ],
      [
        'action=version&format=json',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          payload: '{"url":{"a":1},"format":["json"]}',
        },
      ],
      [
        'action=version&format=json',
        {
          method: 'POST',
          headers: { 'content-type': 'multipart/form-data; boundary=x' },
          payload: '--x\r\nbroken',
        },
      ],
    ];
    for (const [query, options] of odd) {
      const answer = await raw(query, options);
      assert.ok(answer.statusCode < 500, `${query}: ${answer.statusCode} ${answer.body}`);
      assert.match(String(answer.headers['content-type']), /^application\/json/, query);
      assert.equal(typeof answer.json(), 'object');
    }
    const nul = await raw('action=version&format=json&title=%00');
    assert.deepEqual([nul.statusCode, nul.json().errorCode], [400, '400']);
  });

  it('answers other methods with 405 and Allow in YOURLS form', async () => {
    const answer = await raw('action=version&format=json', { method: 'DELETE' });
    assert.equal(answer.statusCode, 405);
    assert.match(String(answer.headers.allow), /GET.*POST/);
    assert.equal(answer.json().errorCode, '405');
  });
});

describe('YOURLS with a store that does not answer', () => {
  it('answers 503 with Retry-After in YOURLS form', async () => {
    const slow = await startTestApp({
      env: { STORE_TIMEOUT_MS: '100' },
      storeSeenByApp: (store) => hangingStore(store, ['findLinkOfWorkspace']),
    });
    try {
      const answer = await slow.app.inject({
        method: 'GET',
        url: `/yourls-api.php?signature=${slow.apiKey}&action=expand&shorturl=abcdefg&format=json`,
      });
      assert.equal(answer.statusCode, 503);
      assert.equal(answer.json().errorCode, '503');
      assert.ok(Number(answer.headers['retry-after']) > 0);
    } finally {
      await slow.close();
    }
  });
});
