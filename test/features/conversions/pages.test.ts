import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { callApi } from '../../fixtures/api-client.ts';
import { PageClient } from '../../fixtures/page-client.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/**
 * Conversion tracking on the pages (docs/api.md §20): the Settings box sets the workspace's default,
 * the link page's edit panel the link's own choice, and the keys page offers conversions:write.
 */

const PASSWORD = 'correct horse battery';
const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

describe('conversion tracking on the pages', () => {
  let t: TestApp;
  let client: PageClient;
  let key = '';
  before(async () => {
    t = await startTestApp({ env: { CLICK_FLUSH_MS: '60000' } });
    key = (await t.ops.createAccount('pages@example.com', 'tester', PASSWORD)).apiKey;
    client = new PageClient(t.app);
    assert.equal((await client.signIn('pages@example.com', PASSWORD)).statusCode, 303);
  });
  after(() => t.close());

  const api = (method: string, path: string, body?: unknown) =>
    callApi(t.app, method, path, { key, ...(body === undefined ? {} : { body }) });

  it('sets the workspace default from the Settings box', async () => {
    let page = await client.open(client.at('/settings'));
    assert.match(
      page.body,
      /<input type="checkbox" name="track_conversions" value="1" aria-describedby="conversions-hint">/,
    );
    const on = await client.post(client.at('/settings/conversions'), { track_conversions: '1' });
    assert.equal(on.statusCode, 303);
    assert.match(String(on.headers.location), /settings\?done=conversions$/);
    assert.equal((await api('GET', '/workspace')).body.track_conversions, true);
    page = await client.open(client.at('/settings'));
    assert.match(
      page.body,
      /name="track_conversions" value="1" aria-describedby="conversions-hint" checked>/,
    );
    assert.equal((await client.post(client.at('/settings/conversions'), {})).statusCode, 303);
    assert.equal((await api('GET', '/workspace')).body.track_conversions, false);
  });

  it("sets a link's own choice from its edit panel", async () => {
    const made = await api('POST', '/links', { url: 'https://shop.example/edit' });
    const code = String(made.body.short_code);
    const page = await client.open(client.at(`/links/${code}?edit`));
    assert.match(page.body, /<select name="track_conversions" data-tracking/);
    assert.match((await client.open(client.at(`/links/${code}`))).body, /data-conversions="false"/);
    const saved = await client.post(client.at(`/links/${code}`), {
      url: 'https://shop.example/edit',
      campaign_fields: '1',
      track_conversions: 'on',
    });
    assert.ok(saved.statusCode === 303 || saved.statusCode === 200, saved.body);
    assert.equal((await api('GET', `/links/${code}`)).body.track_conversions, true);
    const click = await t.app.inject({ method: 'GET', url: `/${code}`, headers: { 'user-agent': BROWSER } });
    assert.match(String(click.headers.location), /\?snip_id=/);
    const shown = await client.open(client.at(`/links/${code}?edit`));
    assert.match(shown.body, /<option value="on" selected>On<\/option>/);
    const facts = await client.open(client.at(`/links/${code}`));
    assert.match(facts.body, /data-conversions="true">tracked: 0 leads, 0 sales/);
  });

  it('shows leads, sales and revenue on the stats page, and none where there are none', async () => {
    const made = await api('POST', '/links', { url: 'https://shop.example/stats', track_conversions: true });
    const code = String(made.body.short_code);
    const quiet = await client.open(client.at(`/links/${code}/stats`));
    assert.doesNotMatch(quiet.body, /data-conversions/);
    const click = await t.app.inject({ method: 'GET', url: `/${code}`, headers: { 'user-agent': BROWSER } });
    const id = /snip_id=([A-Za-z0-9_-]+)/.exec(String(click.headers.location))?.[1];
    await t.app.clickIds.flush();
    await t.app.clicks.flush();
    await api('POST', '/track/lead', { click_id: id, event_name: 'Sign up', customer_id: 'page-1' });
    await api('POST', '/track/sale', { customer_id: 'page-1', amount: 12345, currency: 'EUR' });
    await api('POST', '/track/sale', { customer_id: 'page-1', amount: 500, currency: 'JPY' });
    const page = await client.open(client.at(`/links/${code}/stats`));
    assert.match(page.body, /data-total="leads">1</);
    assert.match(page.body, /data-total="sales">2</);
    assert.match(page.body, /data-total="revenue">€123\.45, ¥500</);
    assert.match(page.body, /data-total="leads_per_click">100\.0%</);
  });

  it('offers the conversions:write scope on the keys page', async () => {
    const page = await client.open(client.at('/keys'));
    assert.match(page.body, /conversions:write/);
  });
});
