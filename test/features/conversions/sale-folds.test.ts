import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { callApi } from '../../fixtures/api-client.ts';
import { STORES } from '../../fixtures/stores.ts';
import type { TestApp } from '../../helper.ts';

/**
 * Sales at once on one link (docs/api.md §20, docs/adr/045): each sale commits its own row and the
 * figures are folded in batches. Concurrent sales and repeated invoices count exactly once, and a
 * sale committed but not yet folded (its process killed in between) is added by the next fold.
 */

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
const TODAY = new Date().toISOString().slice(0, 10);

for (const kind of STORES) {
  describe(`sales folded into their figures on ${kind.name}`, { skip: kind.skip }, () => {
    let t: TestApp;
    let n = 0;

    before(async () => {
      t = await kind.start({ env: { CLICK_FLUSH_MS: '60000' } });
    });
    after(() => t?.close());

    const api = (method: string, path: string, body?: unknown) =>
      callApi(t.app, method, path, { key: t.apiKey, body });
    /** A tracked link with a lead of `customer` on it, and the customer's key. */
    async function linkWithLead(customer: string): Promise<{ code: string; customerKey: string }> {
      const made = await api('POST', '/links', {
        url: `https://shop.example/fold${++n}`,
        track_conversions: true,
      });
      assert.equal(made.status, 201);
      const code = String(made.body.short_code);
      const answer = await t.app.inject({
        method: 'GET',
        url: `/${code}`,
        headers: { 'user-agent': BROWSER },
      });
      const id = /snip_id=([A-Za-z0-9_-]+)/.exec(String(answer.headers.location))?.[1];
      assert.ok(id);
      await t.app.clickIds.flush();
      const lead = await api('POST', '/track/lead', {
        click_id: id,
        event_name: 'Sign up',
        customer_id: customer,
      });
      assert.equal(lead.status, 201);
      return { code, customerKey: String(lead.body.customer_key) };
    }

    it('counts concurrent sales and repeated invoices once each, to the unit', async () => {
      const { code } = await linkWithLead('busy');
      const sales = [
        // Ten invoices, each sent four times at once, and ten sales without an invoice.
        ...Array.from({ length: 40 }, (_, i) => ({
          amount: 100 + (i % 10),
          currency: 'EUR',
          invoice_id: `inv-${i % 10}`,
        })),
        ...Array.from({ length: 10 }, (_, i) => ({ amount: 7 + i, currency: 'USD' })),
      ];
      const answers = await Promise.all(
        sales.map((sale) => api('POST', '/track/sale', { customer_id: 'busy', ...sale })),
      );
      const statuses = answers.map((answer) => answer.status);
      assert.equal(statuses.filter((status) => status === 201).length, 20);
      assert.equal(statuses.filter((status) => status === 200).length, 30);
      const link = await api('GET', `/links/${code}`);
      assert.equal(link.body.sales, 20);
      // 100 + … + 109 once each; 7 + … + 16.
      assert.deepEqual(link.body.revenue, { EUR: 1045, USD: 115 });
      const stats = await api('GET', `/links/${code}/stats?from=${TODAY}&to=${TODAY}`);
      assert.deepEqual((stats.body.conversions as { totals: unknown }).totals, {
        leads: 1,
        sales: 20,
        revenue: { EUR: 1045, USD: 115 },
      });
      assert.equal(await t.store.foldConversions(1000), 0, 'nothing left pending');
    });

    it('adds a sale committed but never folded at the next fold', async () => {
      const { code, customerKey } = await linkWithLead('killed');
      const stored = await t.store.findLinkByCode(0, code);
      assert.ok(stored);
      // The store alone, as a process killed between the sale's commit and its fold leaves it.
      const sold = await t.store.recordSale(
        {
          workspaceId: stored.workspaceId,
          customerKey,
          clickId: null,
          amount: 900,
          currency: 'GBP',
          eventName: 'Purchase',
          invoiceKey: null,
          at: Date.now(),
        },
        TODAY,
      );
      assert.equal(sold.kind, 'recorded');
      assert.equal((await api('GET', `/links/${code}`)).body.sales, 0, 'not folded yet');
      assert.equal(await t.store.foldConversions(1000), 1);
      const link = await api('GET', `/links/${code}`);
      assert.equal(link.body.sales, 1);
      assert.deepEqual(link.body.revenue, { GBP: 900 });
    });
  });
}
