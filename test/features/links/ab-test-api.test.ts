import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem, callApi } from '../../fixtures/api-client.ts';
import { STORES } from '../../fixtures/stores.ts';
import { FakeInspector, type TestApp } from '../../helper.ts';

/**
 * A/B tests on the link resource (docs/api.md §20.x): variants and test_ends_at on create and
 * PATCH, every shape refused with 300, each variant's URL checked like `url` (305, 310, 306–311).
 */

const NOW = Date.parse('2026-06-01T12:00:00Z');
const LATER = '2026-06-08T12:00:00Z';

type Body = Record<string, unknown>;

for (const kind of STORES) {
  describe(`A/B test fields on ${kind.name}`, { skip: kind.skip }, () => {
    let t: TestApp;
    let n = 0;
    let clock = NOW;
    const inspector = new FakeInspector();
    inspector.outcome = (url) =>
      url.pathname === '/gone'
        ? { ok: false, code: '307', reason: '404' }
        : { ok: true, title: 'A page', finalUrl: url.href, status: 200 };
    const fresh = () => `https://example.com/ab-${++n}`;
    const two = () => [
      { url: `https://a.example/${++n}`, weight: 30 },
      { url: `https://b.example/${n}`, weight: 70 },
    ];

    before(async () => {
      t = await kind.start({ inspector, now: () => clock, env: { CLICK_FLUSH_MS: '60000' } });
    });
    after(() => t?.close());

    const api = (method: string, path: string, body?: unknown) =>
      callApi(t.app, method, path, { key: t.apiKey, body });
    const create = (body: Body) => api('POST', '/links', { url: fresh(), ...body });

    it('shows variants [] and test_ends_at null on a link without a test', async () => {
      const made = await create({});
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assert.deepEqual(made.body.variants, []);
      assert.equal(made.body.test_ends_at, null);
    });

    it('creates a link with variants and an end, and reads them back', async () => {
      const variants = two();
      const made = await create({ variants, test_ends_at: LATER });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assert.deepEqual(made.body.variants, variants);
      assert.equal(made.body.test_ends_at, '2026-06-08T12:00:00.000Z');
      const read = await api('GET', `/links/${made.body.short_code}`);
      assert.deepEqual(read.body.variants, variants);
      const stored = await t.store.findLinkByCode(0, made.body.short_code as string);
      assert.equal(stored?.test?.startedAt.getTime(), NOW);
    });

    const refusals: Array<[string, Body, number, string]> = [
      ['one variant', { variants: [{ url: 'https://a.example/', weight: 100 }] }, 400, '300'],
      [
        'five variants',
        { variants: [20, 20, 20, 20, 20].map((weight, i) => ({ url: `https://v${i}.example/`, weight })) },
        400,
        '300',
      ],
      [
        'weights summing to 90',
        {
          variants: [
            { url: 'https://a.example/', weight: 40 },
            { url: 'https://b.example/', weight: 50 },
          ],
        },
        400,
        '300',
      ],
      [
        'a fractional weight',
        {
          variants: [
            { url: 'https://a.example/', weight: 40.5 },
            { url: 'https://b.example/', weight: 59.5 },
          ],
        },
        400,
        '300',
      ],
      [
        'a negative weight',
        {
          variants: [
            { url: 'https://a.example/', weight: -10 },
            { url: 'https://b.example/', weight: 110 },
          ],
        },
        400,
        '300',
      ],
      [
        'a weight as text',
        {
          variants: [
            { url: 'https://a.example/', weight: '50' },
            { url: 'https://b.example/', weight: 50 },
          ],
        },
        400,
        '300',
      ],
      [
        'a relative url',
        {
          variants: [
            { url: '/a', weight: 50 },
            { url: 'https://b.example/', weight: 50 },
          ],
        },
        400,
        '300',
      ],
      [
        'an ftp url',
        {
          variants: [
            { url: 'ftp://a.example/', weight: 50 },
            { url: 'https://b.example/', weight: 50 },
          ],
        },
        400,
        '300',
      ],
      [
        'the same url twice',
        {
          variants: [
            { url: 'https://a.example/', weight: 50 },
            { url: 'https://A.example/', weight: 50 },
          ],
        },
        400,
        '300',
      ],
      [
        'an unknown key',
        {
          variants: [
            { url: 'https://a.example/', weight: 50, name: 'A' },
            { url: 'https://b.example/', weight: 50 },
          ],
        },
        400,
        '300',
      ],
      ['variants as an object', { variants: { url: 'https://a.example/', weight: 100 } }, 400, '300'],
      ['variants as text', { variants: 'https://a.example/' }, 400, '300'],
      [
        'a variant that is not an object',
        { variants: ['https://a.example/', 'https://b.example/'] },
        400,
        '300',
      ],
      ['test_ends_at without variants', { test_ends_at: LATER }, 400, '300'],
      [
        'test_ends_at in the past',
        {
          variants: [
            { url: 'https://a.example/', weight: 50 },
            { url: 'https://b.example/', weight: 50 },
          ],
          test_ends_at: '2026-05-01T00:00:00Z',
        },
        400,
        '300',
      ],
      [
        'test_ends_at that is not a time',
        {
          variants: [
            { url: 'https://a.example/', weight: 50 },
            { url: 'https://b.example/', weight: 50 },
          ],
          test_ends_at: 'tomorrow',
        },
        400,
        '300',
      ],
      [
        'test_ends_at as a number',
        {
          variants: [
            { url: 'https://a.example/', weight: 50 },
            { url: 'https://b.example/', weight: 50 },
          ],
          test_ends_at: 1_800_000_000_000,
        },
        400,
        '300',
      ],
      [
        'a social network variant',
        {
          variants: [
            { url: 'https://www.facebook.com/snip', weight: 50 },
            { url: 'https://b.example/', weight: 50 },
          ],
        },
        422,
        '310',
      ],
      [
        'a variant on this Snip',
        {
          variants: [
            { url: 'https://sn.ip/abcdefg', weight: 50 },
            { url: 'https://b.example/', weight: 50 },
          ],
        },
        409,
        '305',
      ],
      [
        'a variant whose page is gone',
        {
          variants: [
            { url: 'https://a.example/gone', weight: 50 },
            { url: 'https://b.example/', weight: 50 },
          ],
        },
        422,
        '307',
      ],
    ];
    for (const [what, body, status, code] of refusals) {
      it(`refuses ${what} with ${code} on create and on PATCH`, async () => {
        assertProblem(await create(body), status, code);
        const made = await create({});
        assertProblem(await api('PATCH', `/links/${made.body.short_code}`, body), status, code);
        const read = await api('GET', `/links/${made.body.short_code}`);
        assert.deepEqual(read.body.variants, [], 'a refused change changes nothing');
      });
    }

    it('keeps the start on a change of weights, starts anew on new URLs, ends with null', async () => {
      const variants = two();
      const made = await create({ variants });
      const code = made.body.short_code as string;
      const started = (await t.store.findLinkByCode(0, code))?.test?.startedAt.getTime();
      const reweighed = variants.map((v, i) => ({ ...v, weight: i === 0 ? 50 : 50 }));
      const patched = await api('PATCH', `/links/${code}`, { variants: reweighed, test_ends_at: LATER });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.deepEqual(patched.body.variants, reweighed);
      clock += 60_000;
      assert.equal((await t.store.findLinkByCode(0, code))?.test?.startedAt.getTime(), started);
      const renewed = await api('PATCH', `/links/${code}`, { variants: two() });
      assert.equal(renewed.status, 200);
      assert.equal((await t.store.findLinkByCode(0, code))?.test?.startedAt.getTime(), clock);
      assert.equal(renewed.body.test_ends_at, '2026-06-08T12:00:00.000Z', 'the end stays');
      const again = await api('PATCH', `/links/${code}`, { variants: reweighed, test_ends_at: LATER });
      assert.equal(again.status, 200);
      const endOnly = await api('PATCH', `/links/${code}`, { test_ends_at: null });
      assert.deepEqual(endOnly.body.variants, reweighed, 'the end alone changes, the variants stay');
      assert.equal(endOnly.body.test_ends_at, null);
      const cleared = await api('PATCH', `/links/${code}`, { variants: null });
      assert.equal(cleared.status, 200);
      assert.deepEqual(cleared.body.variants, []);
      assert.equal(cleared.body.test_ends_at, null);
      assert.equal((await t.store.findLinkByCode(0, code))?.test, null);
    });
  });
}
