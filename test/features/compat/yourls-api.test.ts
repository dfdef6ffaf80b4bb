import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type ShareXCredentials,
  sharexMultipart,
  sharexQueryOnly,
} from '../../fixtures/sharex/yourls-sharex.ts';
import { readXml, type XmlValue } from '../../fixtures/sharex/yourls-xml-reader.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/** yourls-api.php (docs/api.md §15): each action in each format, and ShareX's YOURLS shortener. */

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';

let t: TestApp;

function api(params: Record<string, string>, method: 'GET' | 'POST' = 'GET') {
  const query = new URLSearchParams({ signature: t.apiKey, ...params }).toString();
  return t.app.inject({ method, url: `/yourls-api.php?${query}` });
}

async function json(params: Record<string, string>) {
  const answer = await api({ ...params, format: 'json' });
  assert.match(String(answer.headers['content-type']), /^application\/json; charset=utf-8/);
  return { status: answer.statusCode, body: answer.json() as Record<string, unknown> };
}

function xmlOf(body: string): Record<string, XmlValue> {
  const { root, value } = readXml(body);
  assert.equal(root, 'root');
  assert.equal(typeof value, 'object');
  return value as Record<string, XmlValue>;
}

before(async () => {
  t = await startTestApp();
  const made = await json({
    action: 'shorturl',
    url: 'https://example.com/clicked',
    keyword: 'clicked',
    title: 'Clicked',
  });
  assert.equal(made.status, 200);
  for (let i = 0; i < 2; i++) {
    const click = await t.app.inject({ method: 'GET', url: '/clicked', headers: { 'user-agent': CHROME } });
    assert.equal(click.statusCode, 302);
  }
  await t.app.clicks.flush();
});
after(() => t.close());

describe('YOURLS shorturl', () => {
  it('creates a link and answers in json as yourls_add_new_link does', async () => {
    const { status, body } = await json({
      action: 'shorturl',
      url: 'https://example.com/a',
      keyword: 'yl-json',
      title: 'Mine',
    });
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(body), [
      'status',
      'code',
      'message',
      'errorCode',
      'statusCode',
      'url',
      'title',
      'shorturl',
    ]);
    assert.equal(body.status, 'success');
    assert.equal(body.statusCode, '200');
    assert.equal(body.shorturl, 'https://sn.ip/yl-json');
    assert.equal(body.title, 'Mine');
    const url = body.url as Record<string, unknown>;
    assert.deepEqual(Object.keys(url), ['keyword', 'url', 'title', 'date', 'ip']);
    assert.equal(url.keyword, 'yl-json');
    assert.equal(url.url, 'https://example.com/a');
    assert.match(String(url.date), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('answers xml by default, jsonp with a callback, and the bare short URL as simple', async () => {
    const xml = await api({ action: 'shorturl', url: 'https://example.com/x' });
    assert.equal(xml.statusCode, 200);
    assert.match(String(xml.headers['content-type']), /^application\/xml; charset=utf-8/);
    const doc = xmlOf(xml.body);
    assert.equal(doc.status, 'success');
    assert.equal(doc.title, 'A page');
    assert.match(String(doc.shorturl), /^https:\/\/sn\.ip\/[0-9A-Za-z]{7}$/);

    const jsonp = await api({
      action: 'shorturl',
      url: 'https://example.com/p',
      format: 'jsonp',
      callback: 'my.cb_1$',
    });
    assert.equal(jsonp.statusCode, 200);
    assert.match(String(jsonp.headers['content-type']), /^application\/javascript/);
    const wrapped = /^my\.cb_1\$\((.*)\)$/s.exec(jsonp.body);
    assert.ok(wrapped, jsonp.body);
    assert.equal(JSON.parse(wrapped[1] as string).status, 'success');

    const simple = await api({ action: 'shorturl', url: 'https://example.com/s', format: 'simple' });
    assert.equal(simple.statusCode, 200);
    assert.match(String(simple.headers['content-type']), /^text\/plain/);
    assert.match(simple.body, /^https:\/\/sn\.ip\/[0-9A-Za-z]{7}$/);
  });

  for (const [shape, request] of [
    ['a multipart form', sharexMultipart],
    ['the query string and an empty body', sharexQueryOnly],
  ] as const) {
    it(`answers ShareX's YOURLS shortener sending ${shape} with the short URL as plain text`, async () => {
      const credentials: ShareXCredentials = { signature: t.apiKey };
      const url = `https://example.com/sharex/${shape.length}`;
      const answer = await t.app.inject(request('/yourls-api.php', credentials, url));
      assert.equal(answer.statusCode, 200, answer.body);
      assert.match(String(answer.headers['content-type']), /^text\/plain/);
      assert.match(answer.body, /^https:\/\/sn\.ip\/[0-9A-Za-z]{7}$/);
      assert.ok(answer.headers['ratelimit-remaining'] !== undefined);
      const expanded = await json({ action: 'expand', shorturl: answer.body });
      assert.equal(expanded.body.longurl, url);
    });
  }
});

describe('YOURLS expand and url-stats', () => {
  it('expands a keyword or a full short URL, in every format', async () => {
    for (const shorturl of ['clicked', 'https://sn.ip/clicked']) {
      const { status, body } = await json({ action: 'expand', shorturl });
      assert.equal(status, 200);
      assert.deepEqual(body, {
        keyword: 'clicked',
        shorturl: 'https://sn.ip/clicked',
        longurl: 'https://example.com/clicked',
        title: 'Clicked',
        message: 'success',
        statusCode: '200',
      });
    }
    assert.equal(
      xmlOf((await api({ action: 'expand', shorturl: 'clicked' })).body).longurl,
      'https://example.com/clicked',
    );
    assert.equal(
      (await api({ action: 'expand', shorturl: 'clicked', format: 'simple' })).body,
      'https://example.com/clicked',
    );
    const jsonp = await api({ action: 'expand', shorturl: 'clicked', format: 'jsonp', callback: 'cb' });
    assert.equal(JSON.parse(jsonp.body.slice(3, -1)).keyword, 'clicked');
  });

  it('answers 404 for a short URL the workspace has not, in every format', async () => {
    for (const shorturl of ['nope-nope', 'https://elsewhere.example/clicked', 'a b']) {
      const { status, body } = await json({ action: 'expand', shorturl });
      assert.equal(status, 404);
      assert.equal(body.errorCode, '404');
    }
    const simple = await api({ action: 'expand', shorturl: 'nope-nope', format: 'simple' });
    assert.deepEqual([simple.statusCode, simple.body], [404, 'not found']);
    const xml = await api({ action: 'url-stats', shorturl: 'nope-nope' });
    assert.equal(xml.statusCode, 404);
    assert.equal(xmlOf(xml.body).statusCode, '404');
  });

  it('gives a link with its clicks', async () => {
    const { status, body } = await json({ action: 'url-stats', shorturl: 'https://sn.ip/clicked' });
    assert.equal(status, 200);
    const link = body.link as Record<string, unknown>;
    assert.deepEqual(Object.keys(link), ['shorturl', 'url', 'title', 'timestamp', 'ip', 'clicks']);
    assert.equal(link.clicks, 2);
    assert.equal(link.url, 'https://example.com/clicked');
    assert.equal(xmlOf((await api({ action: 'url-stats', shorturl: 'clicked' })).body).message, 'success');
    const simple = await api({ action: 'url-stats', shorturl: 'clicked', format: 'simple' });
    assert.deepEqual([simple.statusCode, simple.body], [200, 'Need either XML or JSON format for stats']);
  });
});

describe('YOURLS stats, db-stats and version', () => {
  it('lists links by filter as link_1… with the totals', async () => {
    const top = await json({ action: 'stats', filter: 'top', limit: '2' });
    assert.equal(top.status, 200);
    const links = top.body.links as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(links), ['link_1', 'link_2']);
    assert.equal(links.link_1?.shorturl, 'https://sn.ip/clicked');
    const stats = top.body.stats as { total_links: number; total_clicks: number };
    assert.equal(stats.total_clicks, 2);
    assert.ok(stats.total_links >= 5);

    const bottom = await json({ action: 'stats', filter: 'bottom', limit: '1000' });
    const all = Object.values(bottom.body.links as Record<string, { shorturl: string }>);
    assert.equal(all.length, stats.total_links);
    assert.equal(all.at(-1)?.shorturl, 'https://sn.ip/clicked');
    const last = await json({ action: 'stats', filter: 'last', limit: '1' });
    assert.notEqual(
      (last.body.links as { link_1: { shorturl: string } }).link_1.shorturl,
      'https://sn.ip/clicked',
    );
    const rand = await json({ action: 'stats', filter: 'rand', limit: '3' });
    assert.equal(Object.keys(rand.body.links as object).length, 3);
    const skipped = await json({ action: 'stats', filter: 'top', limit: '1', start: '1' });
    assert.notEqual(
      (skipped.body.links as { link_1: { shorturl: string } }).link_1.shorturl,
      'https://sn.ip/clicked',
    );
  });

  it('lists no links without a usable limit, as YOURLS, and bounds a huge one', async () => {
    for (const limit of [undefined, 'abc', '-3', '0']) {
      const { status, body } = await json({ action: 'stats', ...(limit === undefined ? {} : { limit }) });
      assert.equal(status, 200);
      assert.deepEqual(Object.keys(body), ['stats', 'statusCode', 'message']);
    }
    const huge = await json({ action: 'stats', limit: '99999999999999999999999', start: '1e400' });
    assert.equal(huge.status, 200);
    const xml = xmlOf((await api({ action: 'stats', limit: '1' })).body);
    assert.equal(typeof xml.links, 'object');
    const simple = await api({ action: 'stats', format: 'simple' });
    assert.equal(simple.body, 'Need either XML or JSON format for stats');
  });

  it('gives the totals as db-stats', async () => {
    const { status, body } = await json({ action: 'db-stats' });
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(body), ['db-stats', 'statusCode', 'message']);
    assert.equal((body['db-stats'] as Record<string, number>).total_clicks, 2);
    const xml = xmlOf((await api({ action: 'db-stats' }, 'POST')).body);
    assert.equal((xml['db-stats'] as Record<string, string>).total_clicks, '2');
    const jsonp = await api({ action: 'db-stats', format: 'jsonp', jsonp: 'cb' });
    assert.match(jsonp.body, /^cb\(\{"db-stats":/);
  });

  it("gives Snip's version, with db_version when db=1", async () => {
    const { body } = await json({ action: 'version' });
    assert.deepEqual(Object.keys(body), ['version']);
    assert.match(String(body.version), /^\d+\.\d+\.\d+/);
    assert.deepEqual(Object.keys((await json({ action: 'version', db: '1' })).body), [
      'version',
      'db_version',
    ]);
    assert.equal((await api({ action: 'version', format: 'simple' })).body, body.version);
    assert.equal(xmlOf((await api({ action: 'version' })).body).version, body.version);
  });
});

describe('YOURLS formats', () => {
  it('answers every action in every format with its content type', async () => {
    const actions: Record<string, string>[] = [
      { action: 'shorturl', url: 'https://example.com/matrix' },
      { action: 'expand', shorturl: 'clicked' },
      { action: 'url-stats', shorturl: 'clicked' },
      { action: 'stats', limit: '2' },
      { action: 'db-stats' },
      { action: 'version' },
    ];
    const types = {
      xml: 'application/xml',
      json: 'application/json',
      jsonp: 'application/javascript',
      simple: 'text/plain',
    };
    for (const params of actions) {
      for (const [format, type] of Object.entries(types)) {
        // The first shorturl creates the link; the others find it there already (400, error:url).
        const answer = await api({ ...params, format, callback: 'cb' });
        const expected = params.action === 'shorturl' && format !== 'xml' ? 400 : 200;
        assert.equal(answer.statusCode, expected, `${params.action} ${format}: ${answer.body}`);
        assert.match(String(answer.headers['content-type']), new RegExp(`^${type}; charset=utf-8`));
        if (format === 'xml') xmlOf(answer.body);
        if (format === 'json') assert.equal(typeof answer.json(), 'object');
        if (format === 'jsonp') assert.match(answer.body, /^cb\(\{.*\}\)$/s);
      }
    }
  });
});
