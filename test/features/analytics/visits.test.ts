import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryVisitors } from '../../../src/adapters/memory/visitors.ts';
import { EventTable } from '../../../src/core/analytics/event-table.ts';
import type { VisitBatch } from '../../../src/core/analytics/visit-batch.ts';
import type { ClickCount } from '../../../src/core/entities.ts';
import { ClickBuffer } from '../../../src/features/analytics/collect/click-buffer.ts';
import { visitBatchMaker } from '../../../src/features/analytics/collect/visit-events.ts';
import {
  clickFacts,
  type RawVisit,
  referrerHost,
} from '../../../src/features/analytics/collect/visit-facts.ts';
import {
  cameFromQr,
  clientAddress,
  type VisitPolicy,
  type VisitRequest,
  visitRecorder,
} from '../../../src/features/analytics/collect/visit-recorder.ts';
import { botKindOf } from '../../../src/http/click-kind.ts';

const NOW = Date.UTC(2026, 10, 24, 12);
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const IPAD =
  'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1';

/** A store that keeps what it is given and can be told to fail. */
function fakeStore() {
  const writes: Array<{ counts: ClickCount[]; visits?: VisitBatch }> = [];
  let failures = 0;
  return {
    writes,
    failNext(times: number) {
      failures = times;
    },
    async addClicks(counts: readonly ClickCount[], visits?: VisitBatch) {
      if (failures > 0) {
        failures--;
        throw new Error('store down');
      }
      writes.push({ counts: counts.map((count) => ({ ...count })), visits });
    },
    events() {
      return writes.flatMap((write) => (write.visits ? EventTable.of(write.visits.events).all() : []));
    },
  };
}

function request(headers: Record<string, string>, address = '198.51.100.7', url = '/Abc1234'): VisitRequest {
  return { headers, url, socket: { remoteAddress: address } };
}

function setUp(
  policy: Partial<VisitPolicy> = {},
  countries = { countryOf: (_: string) => 'DE' as string | undefined },
) {
  const store = fakeStore();
  const clicks = new ClickBuffer(store, {
    intervalMs: 60_000,
    now: () => NOW,
    makeVisits: visitBatchMaker({ visitors: new MemoryVisitors(), countries }),
  });
  const record = visitRecorder(clicks, {
    tracking: 'full',
    honorDnt: true,
    exclude: [],
    trustProxy: false,
    now: () => NOW,
    ...policy,
  });
  const click = (req: VisitRequest, method = 'GET', linkId = 1, workspaceId = 10) => {
    const facts = { method, userAgent: req.headers['user-agent'], purpose: '' };
    record(linkId, workspaceId, 'human', facts, req);
  };
  return { store, clicks, record, click };
}

describe('referrerHost', () => {
  it('keeps only the host of a URL, lower case, without credentials or port', () => {
    assert.equal(referrerHost('https://News.Example.COM:8443/a/b?q=secret#x'), 'news.example.com');
    assert.equal(referrerHost('http://user:pw@example.org/path'), 'example.org');
    assert.equal(referrerHost('android-app://com.google.android.gm/'), 'com.google.android.gm');
    assert.equal(referrerHost('https://[2001:db8::1]:443/x'), '[2001:db8::1]');
  });

  it('says direct for none and for anything that is not an absolute URL', () => {
    for (const bad of [
      undefined,
      '',
      'not a url',
      '/relative/path',
      'https://',
      'https://exa mple.com/',
      'javascript:alert(1)',
      `https://${'a'.repeat(300)}.com/`,
      'https://bad_host!/',
    ]) {
      assert.equal(referrerHost(bad), 'direct', String(bad));
    }
  });
});

describe('clickFacts', () => {
  const raw = (fields: Partial<RawVisit>): RawVisit => ({
    linkId: 1,
    workspaceId: 2,
    at: NOW,
    address: '198.51.100.7',
    userAgent: CHROME,
    referer: undefined,
    acceptLanguage: undefined,
    trustedCountry: undefined,
    qr: false,
    ...fields,
  });
  const countries = { countryOf: (address: string) => (address === '198.51.100.7' ? 'FR' : undefined) };

  it('records families, never the strings they came from', () => {
    const facts = clickFacts(
      raw({ acceptLanguage: 'pt-BR,pt;q=0.9,en;q=0.8', referer: 'https://t.co/abc' }),
      countries,
    );
    assert.deepEqual(facts, {
      linkId: 1,
      workspaceId: 2,
      at: NOW,
      referrer: 't.co',
      country: 'FR',
      device: 'desktop',
      os: 'Windows',
      browser: 'Chrome',
      language: 'pt',
      source: 'link',
      variant: '',
    });
    assert.equal(clickFacts(raw({ userAgent: IPHONE }), countries).device, 'mobile');
    assert.equal(clickFacts(raw({ userAgent: IPHONE }), countries).os, 'iOS');
    assert.equal(clickFacts(raw({ userAgent: IPAD }), countries).device, 'tablet');
  });

  it('falls back gracefully on garbage: 8 KB agents, Accept-Language nonsense, unknown addresses', () => {
    const facts = clickFacts(
      raw({ userAgent: `X${'y'.repeat(8192)}`, acceptLanguage: ';;;q=,*,---,\u0000', address: 'nonsense' }),
      countries,
    );
    assert.equal(facts.country, 'ZZ');
    assert.equal(facts.language, 'unknown');
    assert.equal(facts.os, 'Other');
    assert.equal(facts.browser, 'Other');
    assert.equal(clickFacts(raw({ userAgent: undefined }), countries).device, 'other');
  });

  it('takes a trusted CDN country over the address', () => {
    assert.equal(clickFacts(raw({ trustedCountry: 'JP' }), countries).country, 'JP');
  });
});

describe('clientAddress and cameFromQr', () => {
  it('is the socket without a proxy, whatever X-Forwarded-For says', () => {
    const req = request({ 'x-forwarded-for': '203.0.113.9' }, '10.0.0.1');
    assert.equal(clientAddress(req, false), '10.0.0.1');
    assert.equal(clientAddress(req, 1), '203.0.113.9');
    assert.equal(clientAddress(request({ 'x-forwarded-for': '1.1.1.1, 203.0.113.9' }), 1), '203.0.113.9');
    assert.equal(clientAddress(request({ 'x-forwarded-for': '1.1.1.1, 203.0.113.9' }), 2), '1.1.1.1');
    assert.equal(clientAddress(request({ 'x-forwarded-for': '1.1.1.1' }), 5), '1.1.1.1');
  });

  it('tells a scan by qr=1 in the query only', () => {
    assert.equal(cameFromQr('/Abc1234?qr=1'), true);
    assert.equal(cameFromQr('/Abc1234?utm=x&qr=1'), true);
    assert.equal(cameFromQr('/Abc1234?qr=10'), false);
    assert.equal(cameFromQr('/Abc1234'), false);
    assert.equal(cameFromQr('/Abc1234?xqr=1'), false);
  });
});

describe('botKindOf', () => {
  it('names the kind of a bot hit', () => {
    const kind = (method: string, userAgent: string | undefined, purpose = '') =>
      botKindOf({ method, userAgent, purpose });
    assert.equal(kind('HEAD', CHROME), 'head');
    assert.equal(kind('GET', CHROME, 'prefetch'), 'prefetch');
    assert.equal(kind('GET', undefined), 'no-agent');
    assert.equal(kind('GET', 'curl/8.5.0'), 'curl');
    assert.equal(
      kind('GET', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'),
      'google',
    );
  });
});

describe('visitRecorder', () => {
  it('with TRACKING=full keeps an event per human click and counts each visitor once a day', async () => {
    const { store, clicks, click } = setUp();
    click(request({ 'user-agent': CHROME, referer: 'https://news.example.com/story?id=1' }));
    click(request({ 'user-agent': CHROME }));
    click(request({ 'user-agent': IPHONE }, '198.51.100.7', '/Abc1234?qr=1'));
    click(request({ 'user-agent': CHROME }), 'GET', 2, 10);
    await clicks.close();
    const events = store.events();
    assert.equal(events.length, 4);
    assert.deepEqual(
      events.map((event) => [event.referrer, event.source, event.country]),
      [
        ['news.example.com', 'link', 'DE'],
        ['direct', 'link', 'DE'],
        ['direct', 'qr', 'DE'],
        ['direct', 'link', 'DE'],
      ],
    );
    assert.equal(events[0]?.visitor, events[1]?.visitor);
    assert.notEqual(events[0]?.visitor, events[2]?.visitor);
    assert.match(events[0]?.visitor ?? '', /^[0-9a-f]{16}$/);
    const visitors = store.writes[0]?.visits?.visitors ?? [];
    assert.deepEqual(
      visitors.map(({ linkId, ofLink, ofWorkspace }) => [linkId, ofLink, ofWorkspace]),
      [
        [1, 2, 2],
        [2, 1, 0],
      ],
    );
    // Each first sighting names the UTC hour of its first click, where the hourly rollup counts it.
    const firstHours = visitors.map(({ linkId }) => {
      const first = events.find((event) => event.linkId === linkId);
      return new Date(first?.at ?? Number.NaN).getUTCHours();
    });
    assert.deepEqual(
      visitors.map(({ hour }) => hour),
      firstHours,
    );
  });

  it('never lets the address or the user agent reach the store', async () => {
    const { store, clicks, click } = setUp();
    click(
      request(
        { 'user-agent': CHROME, referer: 'https://mail.example.com/inbox/secret-path' },
        '198.51.100.77',
      ),
    );
    await clicks.close();
    const written = JSON.stringify(store.writes);
    for (const secret of ['198.51.100.77', 'Mozilla', 'secret-path', '/inbox']) {
      assert.equal(written.includes(secret), false, secret);
    }
  });

  it('makes a click minimal on Sec-GPC or DNT, unless told not to honour them', async () => {
    for (const header of [{ 'sec-gpc': '1' }, { dnt: '1' }] as Array<Record<string, string>>) {
      const { store, clicks, click } = setUp();
      click(request({ 'user-agent': CHROME, ...header }));
      await clicks.close();
      assert.deepEqual(store.events(), []);
      assert.equal(store.writes[0]?.counts[0]?.clicks, 1);
      assert.equal(store.writes[0]?.counts[0]?.day, '2026-11-24');
      const ignoring = setUp({ honorDnt: false });
      ignoring.click(request({ 'user-agent': CHROME, ...header }));
      await ignoring.clicks.close();
      assert.equal(ignoring.store.events().length, 1);
    }
  });

  it('with TRACKING=minimal counts days only, with off the total only', async () => {
    const minimal = setUp({ tracking: 'minimal' });
    minimal.click(request({ 'user-agent': CHROME }));
    await minimal.clicks.close();
    assert.deepEqual(minimal.store.events(), []);
    assert.equal(minimal.store.writes[0]?.counts[0]?.day, '2026-11-24');
    const off = setUp({ tracking: 'off' });
    off.click(request({ 'user-agent': CHROME }));
    await off.clicks.close();
    assert.deepEqual(off.store.events(), []);
    assert.deepEqual(off.store.writes[0]?.counts, [{ linkId: 1, day: null, clicks: 1, botHits: 0 }]);
  });

  it('counts nothing from TRACKING_EXCLUDE networks, IPv4-mapped and IPv6 included', async () => {
    const { store, clicks, click } = setUp({
      exclude: [
        { address: '203.0.113.0', prefix: 24, family: 'ipv4' },
        { address: '2001:db8::', prefix: 32, family: 'ipv6' },
      ],
    });
    click(request({ 'user-agent': CHROME }, '203.0.113.50'));
    click(request({ 'user-agent': CHROME }, '::ffff:203.0.113.51'));
    click(request({ 'user-agent': CHROME }, '2001:db8::5'));
    click(request({ 'user-agent': CHROME }, '198.51.100.1'));
    await clicks.close();
    assert.equal(store.events().length, 1);
    assert.equal(store.writes[0]?.counts[0]?.clicks, 1);
  });

  it('ignores a forged CF-IPCountry without TRUST_PROXY and believes it behind one', async () => {
    const direct = setUp();
    direct.click(request({ 'user-agent': CHROME, 'cf-ipcountry': 'KP' }));
    await direct.clicks.close();
    assert.equal(direct.store.events()[0]?.country, 'DE');
    const proxied = setUp({ trustProxy: 1 });
    proxied.click(request({ 'user-agent': CHROME, 'cf-ipcountry': 'KP' }));
    await proxied.clicks.close();
    assert.equal(proxied.store.events()[0]?.country, 'KP');
  });

  it('counts bot hits by kind', async () => {
    const { store, clicks, record } = setUp();
    const req = request({ 'user-agent': 'curl/8.5.0' });
    record(1, 10, 'bot', { method: 'GET', userAgent: 'curl/8.5.0', purpose: '' }, req);
    record(1, 10, 'bot', { method: 'HEAD', userAgent: CHROME, purpose: '' }, req);
    await clicks.close();
    assert.deepEqual(store.writes[0]?.visits?.bots, [
      { linkId: 1, day: '2026-11-24', kind: 'curl', hits: 1 },
      { linkId: 1, day: '2026-11-24', kind: 'head', hits: 1 },
    ]);
  });

  it('keeps events and first sightings of a failed write for the next flush, never counting a visitor twice', async () => {
    const { store, clicks, click } = setUp();
    click(request({ 'user-agent': CHROME }));
    store.failNext(1);
    await clicks.flush();
    assert.equal(clicks.pendingVisits, 1);
    click(request({ 'user-agent': CHROME }));
    await clicks.close();
    assert.equal(store.events().length, 2);
    const visitors = store.writes.flatMap((write) => write.visits?.visitors ?? []);
    assert.deepEqual(
      visitors.map(({ ofLink, ofWorkspace }) => [ofLink, ofWorkspace]),
      [[1, 1]],
    );
    assert.equal(
      store.writes.reduce((sum, write) => sum + (write.counts[0]?.clicks ?? 0), 0),
      2,
    );
  });

  it('holds visits while the visitor sets cannot answer, and still writes the counts', async () => {
    const store = fakeStore();
    let down = true;
    const memory = new MemoryVisitors();
    const visitors = {
      secretOf: (day: string) => (down ? Promise.reject(new Error('redis down')) : memory.secretOf(day)),
      add: memory.add.bind(memory),
    };
    const clicks = new ClickBuffer(store, {
      intervalMs: 60_000,
      now: () => NOW,
      makeVisits: visitBatchMaker({ visitors, countries: { countryOf: () => undefined } }),
    });
    const record = visitRecorder(clicks, {
      tracking: 'full',
      honorDnt: true,
      exclude: [],
      trustProxy: false,
      now: () => NOW,
    });
    record(
      1,
      10,
      'human',
      { method: 'GET', userAgent: CHROME, purpose: '' },
      request({ 'user-agent': CHROME }),
    );
    await clicks.flush();
    assert.equal(store.writes[0]?.counts[0]?.clicks, 1);
    assert.equal(store.events().length, 0);
    assert.equal(clicks.pendingVisits, 1);
    down = false;
    await clicks.close();
    assert.equal(store.events().length, 1);
    assert.equal(store.events()[0]?.country, 'ZZ');
  });
});

describe('MemoryVisitors', () => {
  it('says where each visitor is new, from the first of a link to many, per day', async () => {
    const visitors = new MemoryVisitors();
    const add = (day: string, linkId: number, visitor: string) =>
      visitors.add(day, [{ linkId, workspaceId: 10, visitor }]).then(([first]) => first);
    assert.deepEqual(await add('2026-11-24', 1, 'aa'), { ofLink: true, ofWorkspace: true });
    assert.deepEqual(await add('2026-11-24', 1, 'aa'), { ofLink: false, ofWorkspace: false });
    assert.deepEqual(await add('2026-11-24', 1, 'bb'), { ofLink: true, ofWorkspace: true });
    assert.deepEqual(await add('2026-11-24', 1, 'cc'), { ofLink: true, ofWorkspace: true });
    assert.deepEqual(await add('2026-11-24', 1, 'bb'), { ofLink: false, ofWorkspace: false });
    assert.deepEqual(await add('2026-11-24', 2, 'aa'), { ofLink: true, ofWorkspace: false });
    assert.deepEqual(await add('2026-11-25', 1, 'aa'), { ofLink: true, ofWorkspace: true });
    const same = await visitors.add('2026-11-24', [
      { linkId: 3, workspaceId: 11, visitor: 'dd' },
      { linkId: 3, workspaceId: 11, visitor: 'dd' },
    ]);
    assert.deepEqual(same, [
      { ofLink: true, ofWorkspace: true },
      { ofLink: false, ofWorkspace: false },
    ]);
  });
});
