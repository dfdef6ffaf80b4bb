import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { callApi } from '../../fixtures/api-client.ts';
import { PageClient } from '../../fixtures/page-client.ts';
import { STORES } from '../../fixtures/stores.ts';
import type { TestApp } from '../../helper.ts';

/**
 * The stats pages' conversion funnel and a link's Variants card (docs/api.md §20): shown only where
 * conversions are tracked or recorded, and where the link has or had an A/B test.
 */

const PASSWORD = 'correct horse battery';
const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

for (const kind of STORES) {
  describe(`the funnel and Variants cards on ${kind.name}`, { skip: kind.skip }, () => {
    let t: TestApp;
    let client: PageClient;
    let key = '';
    let n = 0;

    before(async () => {
      t = await kind.start({ env: { CLICK_FLUSH_MS: '60000' } });
      key = (await t.ops.createAccount('funnel@example.com', 'tester', PASSWORD)).apiKey;
      client = new PageClient(t.app);
      assert.equal((await client.signIn('funnel@example.com', PASSWORD)).statusCode, 303);
    });
    after(() => t?.close());

    const api = (method: string, path: string, body?: unknown) =>
      callApi(t.app, method, path, { key, ...(body === undefined ? {} : { body }) });
    async function link(body: Record<string, unknown>): Promise<string> {
      const made = await api('POST', '/links', { url: `https://shop.example/f${++n}`, ...body });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      return String(made.body.short_code);
    }
    async function click(code: string, agent = BROWSER): Promise<string | undefined> {
      const answer = await t.app.inject({ method: 'GET', url: `/${code}`, headers: { 'user-agent': agent } });
      assert.equal(answer.statusCode, 302);
      return /snip_id=([A-Za-z0-9_-]+)/.exec(String(answer.headers.location))?.[1];
    }
    const stats = async (code: string) => (await client.open(client.at(`/links/${code}/stats`))).body;

    it('shows no funnel and no Variants card for a plain link', async () => {
      const code = await link({});
      await click(code);
      await t.app.clicks.flush();
      const page = await stats(code);
      assert.doesNotMatch(page, /id="funnel"/);
      assert.doesNotMatch(page, /id="variants"/);
    });

    it('shows the funnel of a tracked link, empty before its first lead', async () => {
      const code = await link({ track_conversions: true });
      const page = await stats(code);
      assert.match(page, /id="funnel"/);
      assert.match(page, /<li data-value="leads">.*?—/s);
      assert.match(page, /data-revenue="none"/);
    });

    it('shows clicks → leads → sales with their rates and the revenue per currency', async () => {
      const code = await link({ track_conversions: true });
      const ids = [await click(code), await click(code, `${BROWSER} other`)];
      await t.app.clickIds.flush();
      await t.app.clicks.flush();
      const lead = await api('POST', '/track/lead', {
        click_id: ids[0],
        event_name: 'Sign up',
        customer_id: 'f1',
      });
      assert.equal(lead.status, 201, JSON.stringify(lead.body));
      for (const [amount, currency] of [
        [12345, 'EUR'],
        [500, 'JPY'],
      ] as const) {
        const sale = await api('POST', '/track/sale', { customer_id: 'f1', amount, currency });
        assert.equal(sale.status, 201, JSON.stringify(sale.body));
      }
      const page = await stats(code);
      const step = (name: string) =>
        new RegExp(`<li data-value="${name}">(.*?)</li>`, 's').exec(page)?.[1] ?? '';
      assert.match(step('clicks'), /bar-figure">2</);
      assert.match(step('leads'), /bar-figure">1<.*50\.0% of clicks/s);
      assert.match(step('sales'), /bar-figure">2<.*200\.0% of leads/s);
      assert.match(page, /data-revenue="EUR">€123\.45</);
      assert.match(page, /data-revenue="JPY">¥500</);
    });

    it("shows the clicks each variant of a link's A/B test took", async () => {
      const code = await link({
        variants: [
          { url: 'https://shop.example/a', weight: 50 },
          { url: 'https://shop.example/b', weight: 50 },
        ],
      });
      const empty = await stats(code);
      assert.match(empty, /id="variants"/);
      assert.match(empty, /<li data-value="1">.*?Variant 1: https:\/\/shop\.example\/a/s);
      for (let i = 0; i < 12; i++) await click(code, `${BROWSER} visitor-${i}`);
      await t.app.clicks.flush();
      const page = await stats(code);
      const figures = [...page.matchAll(/<li data-value="([12])">.*?bar-figure">(\d+)</gs)].map((m) => [
        m[1],
        Number(m[2]),
      ]);
      assert.equal(figures.length, 2, page);
      assert.equal(
        figures.reduce((sum, [, clicks]) => sum + Number(clicks), 0),
        12,
      );
    });
  });
}
