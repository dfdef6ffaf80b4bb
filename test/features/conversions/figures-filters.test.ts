import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { callApi } from '../../fixtures/api-client.ts';
import { STORES } from '../../fixtures/stores.ts';
import type { TestApp } from '../../helper.ts';

/**
 * Conversions under the stats filters (docs/api.md §20, docs/adr/045): a workspace's group, tag and
 * domain keep their links' leads and sales; a filter on the visits is not applied to them and the
 * answer says so; a link with an A/B test splits them by variant.
 */

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
const NOW = Date.parse('2026-06-10T12:00:00Z');
const TODAY = '2026-06-10';
const ACME = 'go.acme.example';

type Figures = {
  totals: { leads: number; sales: number; revenue: Record<string, number> };
  rates: { leads_per_click: number | null; sales_per_lead: number | null };
  filtered: boolean;
  variants?: Array<{ variant: string; leads: number; sales: number; revenue: Record<string, number> }>;
};

for (const kind of STORES) {
  describe(`conversions under the stats filters on ${kind.name}`, { skip: kind.skip }, () => {
    let t: TestApp;
    const records = new Map<string, string>();
    const resolveTxt = async (name: string): Promise<string[][]> => {
      const value = records.get(name);
      if (value === undefined) throw Object.assign(new Error('no record'), { code: 'ENODATA' });
      return [[value]];
    };
    let n = 0;

    const api = (method: string, path: string, body?: unknown) =>
      callApi(t.app, method, path, { key: t.apiKey, ...(body === undefined ? {} : { body }) });
    async function link(body: Record<string, unknown>): Promise<string> {
      const made = await api('POST', '/links', {
        url: `https://shop.example/p${++n}`,
        track_conversions: true,
        ...body,
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      return String(made.body.short_code);
    }
    /** One click from its own visitor: its click id and where it was sent. */
    async function click(code: string, host = 'sn.ip', visitor = 0) {
      const answer = await t.app.inject({
        method: 'GET',
        url: `/${code}`,
        headers: { host, 'user-agent': `${BROWSER} v${visitor}` },
        remoteAddress: `127.0.${Math.floor(visitor / 250)}.${(visitor % 250) + 1}`,
      });
      const location = String(answer.headers.location);
      const id = /snip_id=([A-Za-z0-9_-]+)/.exec(location)?.[1];
      assert.ok(id, location);
      await t.app.clickIds.flush();
      await t.app.clicks.flush();
      return { id, location };
    }
    async function lead(clickId: string, customer: string) {
      const answer = await api('POST', '/track/lead', {
        click_id: clickId,
        event_name: 'Sign up',
        customer_id: customer,
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
    }
    async function sale(body: Record<string, unknown>) {
      const answer = await api('POST', '/track/sale', body);
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
    }
    async function figures(path: string): Promise<Figures> {
      const answer = await api('GET', path);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body.conversions as Figures;
    }

    before(async () => {
      t = await kind.start({ now: () => NOW, resolveTxt, env: { CLICK_FLUSH_MS: '60000' } });
      const added = await api('POST', '/domains', { host: ACME });
      assert.equal(added.status, 201, JSON.stringify(added.body));
      const { record, value } = added.body.verification as { record: string; value: string };
      records.set(record, value);
      assert.equal((await api('POST', `/domains/${ACME}/verify`)).body.verified, true);
      assert.equal((await api('POST', '/groups', { name: 'Spring', api_id: 'spring' })).status, 201);
    });
    after(() => t?.close());

    it('sums the leads and sales of the links a group, tag or domain keeps', async () => {
      const grouped = await link({ group: 'spring', tags: ['promo'] });
      const elsewhere = await link({ domain: ACME });
      const one = await click(grouped);
      await click(grouped, 'sn.ip', 1);
      const two = await click(elsewhere, ACME);
      await lead(one.id, 'g1');
      await sale({ customer_id: 'g1', amount: 1200, currency: 'EUR' });
      await lead(two.id, 'g2');
      await sale({ customer_id: 'g2', amount: 300, currency: 'USD' });
      const range = `from=${TODAY}&to=${TODAY}`;
      const all = await figures(`/stats?${range}`);
      assert.equal(all.totals.leads, 2);
      assert.equal(all.filtered, true);
      assert.equal(all.variants, undefined, "a workspace's answer has no variants");
      for (const only of ['group=spring', 'tag=promo', 'domain=sn.ip']) {
        const kept = await figures(`/stats?${range}&${only}`);
        assert.deepEqual(kept.totals, { leads: 1, sales: 1, revenue: { EUR: 1200 } }, only);
        assert.deepEqual(kept.rates, { leads_per_click: 0.5, sales_per_lead: 1 }, only);
        assert.equal(kept.filtered, true, only);
      }
      const acme = await figures(`/stats?${range}&domain=${ACME}`);
      assert.deepEqual(acme.totals, { leads: 1, sales: 1, revenue: { USD: 300 } });
      const none = await figures(`/stats?${range}&tag=nothing`);
      assert.deepEqual(none.totals, { leads: 0, sales: 0, revenue: {} });
    });

    it('says a filter on the visits is not applied to conversions, and gives no leads per click', async () => {
      for (const query of [
        'country=DE',
        'device=mobile',
        'referrer=Google',
        'utm_source=news',
        'group=spring&os=iOS',
      ]) {
        const answer = await figures(`/stats?from=${TODAY}&to=${TODAY}&${query}`);
        assert.equal(answer.filtered, false, query);
        assert.equal(answer.rates.leads_per_click, null, query);
      }
      const kept = await figures(`/stats?from=${TODAY}&to=${TODAY}&group=spring&os=iOS`);
      assert.deepEqual(kept.totals, { leads: 1, sales: 1, revenue: { EUR: 1200 } }, 'group still applies');
      assert.equal(kept.rates.sales_per_lead, 1);
      const code = await link({});
      assert.equal((await figures(`/links/${code}/stats?country=DE`)).filtered, false);
      const plain = await figures(`/links/${code}/stats`);
      assert.equal(plain.filtered, true);
      assert.deepEqual(plain.variants, [], 'a link without a test has none');
    });

    it("splits a link's leads, sales and revenue by the variant its clicks went to", async () => {
      const code = await link({
        variants: [
          { url: 'https://a.example/', weight: 50 },
          { url: 'https://b.example/', weight: 50 },
        ],
      });
      const seen = new Map<string, string>();
      for (let visitor = 10; seen.size < 2 && visitor < 400; visitor++) {
        const { id, location } = await click(code, 'sn.ip', visitor);
        const variant = location.startsWith('https://a.example/') ? '1' : '2';
        if (!seen.has(variant)) seen.set(variant, id);
      }
      const [first, second] = [seen.get('1'), seen.get('2')];
      assert.ok(first && second, 'both variants were chosen');
      await lead(first, 'v1');
      await sale({ customer_id: 'v1', amount: 500, currency: 'EUR' });
      await sale({ customer_id: 'v1', amount: 70, currency: 'USD' });
      await lead(second, 'v2');
      await sale({ click_id: second, amount: 900, currency: 'EUR' });
      const answer = await figures(`/links/${code}/stats?from=${TODAY}&to=${TODAY}`);
      assert.deepEqual(answer.totals, { leads: 2, sales: 3, revenue: { EUR: 1400, USD: 70 } });
      assert.deepEqual(answer.variants, [
        { variant: '1', leads: 1, sales: 2, revenue: { EUR: 500, USD: 70 } },
        { variant: '2', leads: 1, sales: 1, revenue: { EUR: 900 } },
      ]);
      const yesterday = await figures(`/links/${code}/stats?from=2026-06-09&to=2026-06-09`);
      assert.deepEqual(yesterday.variants, [], 'only the days of the range');
    });
  });
}
