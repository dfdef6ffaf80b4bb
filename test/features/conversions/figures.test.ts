import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { DAY_MS } from '../../../src/core/days.ts';
import { statsCsv } from '../../../src/features/analytics/pages/stats-csv.ts';
import { assertProblem, callApi } from '../../fixtures/api-client.ts';
import { STORES } from '../../fixtures/stores.ts';
import { type Receiver, startReceiver } from '../../fixtures/webhook-receiver.ts';
import type { TestApp } from '../../helper.ts';

/**
 * What conversions add up to (docs/api.md §20): leads, sales and revenue in /api/v1/stats, a link's
 * stats and its resource; the lead.created and sale.created webhooks, signed, naming nothing of the
 * customer but customer_key; a click id past CONVERSION_WINDOW_DAYS is 321 and swept away.
 */

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
const START = Date.parse('2026-06-10T12:00:00Z');
const TODAY = '2026-06-10';

for (const kind of STORES) {
  describe(`conversion figures on ${kind.name}`, { skip: kind.skip }, () => {
    let t: TestApp;
    let receiver: Receiver;
    let clock = START;
    let secret = '';
    let n = 0;

    before(async () => {
      receiver = await startReceiver();
      t = await kind.start({
        now: () => clock,
        env: { ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_BASE_MS: '20', CLICK_FLUSH_MS: '60000' },
      });
      const made = await api('POST', '/webhooks', {
        url: receiver.url,
        events: ['lead.created', 'sale.created'],
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      secret = String(made.body.secret);
    });
    after(async () => {
      await t?.close();
      await receiver?.close();
    });

    const api = (method: string, path: string, body?: unknown) =>
      callApi(t.app, method, path, { key: t.apiKey, ...(body === undefined ? {} : { body }) });
    async function trackedLink(): Promise<string> {
      const answer = await api('POST', '/links', {
        url: `https://shop.example/f${++n}`,
        track_conversions: true,
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return String(answer.body.short_code);
    }
    async function click(code: string): Promise<string> {
      const answer = await t.app.inject({
        method: 'GET',
        url: `/${code}`,
        headers: { 'user-agent': BROWSER },
      });
      const id = /snip_id=([A-Za-z0-9_-]+)/.exec(String(answer.headers.location))?.[1];
      assert.ok(id);
      await t.app.clickIds.flush();
      await t.app.clicks.flush();
      return id;
    }

    it('adds leads, sales and revenue to the stats, the link stats and the resource', async () => {
      const code = await trackedLink();
      const id = await click(code);
      await click(code);
      assert.equal(
        (await api('POST', '/track/lead', { click_id: id, event_name: 'Sign up', customer_id: 'u1' })).status,
        201,
      );
      for (const [amount, currency] of [
        [1000, 'EUR'],
        [250, 'EUR'],
        [700, 'JPY'],
      ] as const) {
        assert.equal((await api('POST', '/track/sale', { customer_id: 'u1', amount, currency })).status, 201);
      }
      const stats = await api('GET', `/links/${code}/stats?from=${TODAY}&to=${TODAY}`);
      assert.equal(stats.status, 200, JSON.stringify(stats.body));
      const figures = stats.body.conversions as Record<string, unknown>;
      assert.deepEqual(figures.totals, { leads: 1, sales: 3, revenue: { EUR: 1250, JPY: 700 } });
      assert.deepEqual(figures.rates, { leads_per_click: 0.5, sales_per_lead: 3 });
      assert.deepEqual(figures.series, [
        { day: TODAY, leads: 1, sales: 3, revenue: { EUR: 1250, JPY: 700 } },
      ]);
      const all = await api('GET', `/stats?from=${TODAY}&to=${TODAY}`);
      const totals = (all.body.conversions as { totals: { leads: number } }).totals;
      assert.ok(totals.leads >= 1);
      const link = await api('GET', `/links/${code}`);
      assert.equal(link.body.leads, 1);
      assert.equal(link.body.sales, 3);
      assert.deepEqual(link.body.revenue, { EUR: 1250, JPY: 700 });
      const csv = statsCsv(stats.body as never).split('\r\n');
      assert.equal(csv[0], 'dimension,value,clicks,unique_visitors,leads,sales,revenue');
      assert.match(String(csv[1]), /^total,all,2,\d+,1,3,EUR:1250 JPY:700$/);
    });

    it('sends signed lead.created and sale.created with nothing of the customer but customer_key', async () => {
      const code = await trackedLink();
      const id = await click(code);
      const lead = await api('POST', '/track/lead', {
        click_id: id,
        event_name: 'Trial',
        customer_id: 'hook-cus-77',
      });
      assert.equal(lead.status, 201);
      await api('POST', '/track/sale', {
        customer_id: 'hook-cus-77',
        amount: 990,
        currency: 'USD',
        invoice_id: 'hook-inv-1',
      });
      const ofCode = (type: string) => receiver.ofType(type).filter((one) => one.body.includes(`"${code}"`));
      await receiver.until(() => ofCode('lead.created').length >= 1 && ofCode('sale.created').length >= 1);
      const verify = (one: Receiver['received'][number]) =>
        new Webhook(secret).verify(one.body, {
          'webhook-id': String(one.headers['webhook-id']),
          'webhook-timestamp': String(one.headers['webhook-timestamp']),
          'webhook-signature': String(one.headers['webhook-signature']),
        }) as { type: string; data: Record<string, unknown> };
      const leadEvent = verify(ofCode('lead.created')[0] as Receiver['received'][number]);
      assert.deepEqual(Object.keys(leadEvent.data).sort(), ['customer_key', 'event_name', 'link']);
      assert.equal(leadEvent.data.customer_key, lead.body.customer_key);
      assert.equal(leadEvent.data.event_name, 'Trial');
      assert.equal((leadEvent.data.link as { short_code: string }).short_code, code);
      const saleEvent = verify(ofCode('sale.created')[0] as Receiver['received'][number]);
      assert.deepEqual(Object.keys(saleEvent.data).sort(), [
        'amount',
        'currency',
        'customer_key',
        'event_name',
        'link',
      ]);
      assert.equal(saleEvent.data.amount, 990);
      assert.equal(saleEvent.data.currency, 'USD');
      assert.equal(saleEvent.data.event_name, 'Purchase');
      for (const one of [...ofCode('lead.created'), ...ofCode('sale.created')]) {
        assert.doesNotMatch(one.body, /hook-cus-77|hook-inv-1/);
        assert.doesNotMatch(one.body, new RegExp(id));
      }
    });

    it('answers 321 once a click id is past the window, and the sweep removes it', async () => {
      const code = await trackedLink();
      const id = await click(code);
      clock = START + 91 * DAY_MS;
      try {
        assertProblem(
          await api('POST', '/track/lead', { click_id: id, event_name: 'Late', customer_id: 'late' }),
          404,
          '321',
        );
        assert.ok((await t.app.conversionSweep()) >= 1);
        clock = START;
        assertProblem(
          await api('POST', '/track/lead', { click_id: id, event_name: 'Late', customer_id: 'late' }),
          404,
          '321',
        );
      } finally {
        clock = START;
      }
    });
  });
}
