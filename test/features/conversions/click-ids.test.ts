import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConversionClick } from '../../../src/core/conversions.ts';
import { withClickId } from '../../../src/core/conversions.ts';
import { type ClickIdOptions, ClickIds } from '../../../src/features/conversions/click-ids.ts';

/** The click ids of tracked links (docs/api.md §20): who gets one, what is kept, and that none is lost. */

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
const AT = Date.parse('2026-06-10T12:34:56Z');

function clickIds(options: Partial<ClickIdOptions> = {}) {
  const written: ConversionClick[] = [];
  let failing = false;
  const ids = new ClickIds({
    store: {
      async addConversionClicks(rows) {
        if (failing) throw new Error('store down');
        written.push(...rows);
      },
    },
    countries: { countryOf: (address: string) => (address === '203.0.113.9' ? 'DE' : undefined) },
    tracking: 'full',
    honorDnt: true,
    trustProxy: false,
    intervalMs: 60_000,
    now: () => AT,
    onError: () => {},
    ...options,
  });
  const fail = (on: boolean) => {
    failing = on;
  };
  return { ids, written, fail };
}

const request = (headers: Record<string, string> = {}, url = '/abc') => ({
  headers: {
    'user-agent': BROWSER,
    referer: 'https://news.example.com/a?b=c',
    'accept-language': 'de-DE',
    ...headers,
  },
  url,
  socket: { remoteAddress: '203.0.113.9' },
});

describe('click ids', () => {
  it('keeps the link, the day and the facts of §9.1, never the address or the agent', async () => {
    const { ids, written } = clickIds();
    const id = ids.issue(7, 3, request({}, '/abc?qr=1'));
    assert.match(String(id), /^[A-Za-z0-9_-]{24}$/);
    await ids.close();
    assert.deepEqual(written, [
      {
        clickId: id,
        workspaceId: 3,
        linkId: 7,
        variant: null,
        day: '2026-06-10',
        facts: {
          referrer: 'news.example.com',
          country: 'DE',
          device: 'desktop',
          os: 'Linux',
          browser: 'Chrome',
          language: 'de',
          source: 'qr',
        },
      },
    ]);
    assert.doesNotMatch(JSON.stringify(written), /203\.0\.113|Mozilla/);
  });

  it('gives none under TRACKING=off or to a click asking not to be tracked; minimal keeps no facts', async () => {
    assert.equal(clickIds({ tracking: 'off' }).ids.issue(1, 1, request()), undefined);
    const { ids, written } = clickIds();
    assert.equal(ids.issue(1, 1, request({ dnt: '1' })), undefined);
    assert.equal(ids.issue(1, 1, request({ 'sec-gpc': '1' })), undefined);
    assert.ok(clickIds({ honorDnt: false }).ids.issue(1, 1, request({ dnt: '1' })));
    const minimal = clickIds({ tracking: 'minimal' });
    assert.ok(minimal.ids.issue(1, 1, request()));
    await minimal.ids.close();
    assert.equal(minimal.written[0]?.facts, null);
    await ids.close();
    assert.equal(written.length, 0);
  });

  it('keeps what a failed write held and writes it with the next flush', async () => {
    const { ids, written, fail } = clickIds();
    const first = ids.issue(1, 1, request());
    fail(true);
    await ids.flush();
    assert.equal(ids.pending, 1);
    const second = ids.issue(2, 1, request());
    fail(false);
    await ids.close();
    assert.deepEqual(
      written.map((row) => row.clickId),
      [first, second],
    );
    assert.equal(ids.pending, 0);
  });

  it('appends the id to the query, before the fragment', () => {
    const id = 'q3T0b1nXr5c8Vd2LmZkAaB9e';
    assert.equal(withClickId('https://a.example/p', id), `https://a.example/p?snip_id=${id}`);
    assert.equal(withClickId('https://a.example/p?x=1', id), `https://a.example/p?x=1&snip_id=${id}`);
    assert.equal(withClickId('https://a.example/p?', id), `https://a.example/p?snip_id=${id}`);
    assert.equal(withClickId('https://a.example/p?x=1#top', id), `https://a.example/p?x=1&snip_id=${id}#top`);
    assert.equal(withClickId('https://a.example/#/route?x', id), `https://a.example/?snip_id=${id}#/route?x`);
  });
});
