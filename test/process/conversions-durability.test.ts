import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, it } from 'node:test';
import { openStore } from '../../src/adapters/open-store.ts';
import { accountOperations } from '../../src/features/workspaces/cli/account-operations.ts';
import { startServerProcess } from './server-process.ts';

/**
 * Conversions survive their process (docs/api.md §20): click ids handed out are written on a
 * graceful stop, as clicks are; a lead or sale answered 201 is in the store even if the process is
 * killed the moment after.
 */

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

describe('conversions across a stop and a kill', () => {
  it('keeps every click id on SIGTERM, and an acknowledged lead and sale on SIGKILL', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'snip-conversions-'));
    const file = join(dir, 'snip.db');
    const databaseUrl = `sqlite:${file}`;
    try {
      const seed = await openStore(databaseUrl, { prepare: true });
      const ops = accountOperations(seed);
      await ops.savePlan('tester', { apiAccess: true, urlQuota: 100, rateLimitPerHour: 1000 });
      const { account, apiKey } = await ops.createAccount('merchant@example.com', 'tester');
      const created = await seed.insertLinkWithinQuota({
        code: 'Convert1',
        domainId: 0,
        workspaceId: account.workspace.id,
        groupId: null,
        longUrl: 'https://shop.example/',
        normalizedUrl: 'https://shop.example/',
        urlHash: 'c'.repeat(64),
        title: '',
        guards: { trackConversions: true },
      });
      assert.equal(created.kind, 'created');
      await seed.close();

      // Click ids are flushed only at shutdown: a minute-long interval never fires during the test.
      let server = await startServerProcess({ DATABASE_URL: databaseUrl, CLICK_FLUSH_MS: '60000' });
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) {
        const answer = await fetch(`${server.url}/Convert1`, {
          redirect: 'manual',
          headers: { 'user-agent': BROWSER },
        });
        const id = /snip_id=([A-Za-z0-9_-]+)/.exec(answer.headers.get('location') ?? '')?.[1];
        assert.ok(id);
        ids.push(id);
      }
      assert.equal(await server.stop('SIGTERM'), 0);
      const db = () => new DatabaseSync(file, { readOnly: true });
      let read = db();
      const kept = read.prepare('SELECT click_id FROM conversion_clicks').all() as Array<{
        click_id: string;
      }>;
      read.close();
      assert.deepEqual(kept.map((row) => row.click_id).sort(), ids.toSorted());

      server = await startServerProcess({ DATABASE_URL: databaseUrl, CLICK_FLUSH_MS: '60000' });
      const post = (path: string, body: unknown) =>
        fetch(`${server.url}/api/v1/track/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
          body: JSON.stringify(body),
        });
      const lead = await post('lead', { click_id: ids[7], event_name: 'Sign up', customer_id: 'kill-1' });
      assert.equal(lead.status, 201);
      const sale = await post('sale', {
        customer_id: 'kill-1',
        amount: 1200,
        currency: 'EUR',
        invoice_id: 'k1',
      });
      assert.equal(sale.status, 201);
      await server.stop('SIGKILL');

      read = db();
      try {
        const link = read.prepare("SELECT leads, sales, revenue FROM links WHERE code = 'Convert1'").get();
        assert.deepEqual({ ...link }, { leads: 1, sales: 1, revenue: '{"EUR":1200}' });
        assert.equal(
          (read.prepare('SELECT COUNT(*) AS n FROM conversion_leads').get() as { n: number }).n,
          1,
        );
        assert.equal(
          (read.prepare('SELECT COUNT(*) AS n FROM conversion_invoices').get() as { n: number }).n,
          1,
        );
      } finally {
        read.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
