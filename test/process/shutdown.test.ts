import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openStore } from '../../src/adapters/open-store.ts';
import { accountOperations } from '../../src/features/workspaces/cli/account-operations.ts';
import { startServerProcess } from './server-process.ts';

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

describe('graceful shutdown', () => {
  it('writes every buffered click and its event before the process exits on SIGTERM', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'snip-shutdown-'));
    const databaseUrl = `sqlite:${join(dir, 'snip.db')}`;
    try {
      const seed = await openStore(databaseUrl, { prepare: true });
      const { account } = await accountOperations(seed).createAccount('clicks@example.com', 'pro');
      const created = await seed.insertLinkWithinQuota({
        code: 'Shutdn1',
        domainId: 0,
        workspaceId: account.workspace.id,
        groupId: null,
        longUrl: 'https://example.com/',
        normalizedUrl: 'https://example.com/',
        urlHash: 'a'.repeat(64),
        title: '',
      });
      assert.equal(created.kind, 'created');
      await seed.close();

      // Flushes only at shutdown: a minute-long interval never fires during the test.
      const server = await startServerProcess({ DATABASE_URL: databaseUrl, CLICK_FLUSH_MS: '60000' });
      const clicks = 600;
      for (let batch = 0; batch < clicks / 50; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            fetch(`${server.url}/Shutdn1${i % 5 === 0 ? '?qr=1' : ''}`, {
              redirect: 'manual',
              headers: { 'user-agent': BROWSER, referer: 'https://news.example.com/story' },
            }),
          ),
        );
        assert.ok(answers.every((a) => a.status === 302));
      }
      assert.equal(await server.stop('SIGTERM'), 0);

      const after = await openStore(databaseUrl, { prepare: false });
      try {
        const link = await after.findLinkByCode(0, 'Shutdn1');
        assert.ok(link);
        assert.equal(link.clicks, clicks);
        assert.equal(link.uniqueVisitors, 1);
        // The events of TRACKING=full were buffered too: every one of them was written.
        const now = Date.now();
        const day = now - (now % 86_400_000);
        const stats = await after.stats(
          { linkId: link.id },
          { from: day - 3_600_000 * 24, to: day + 86_400_000, interval: 'hour' },
        );
        assert.equal(stats.totals.clicks, clicks);
        assert.equal(stats.totals.qrScans, clicks / 5);
        assert.deepEqual(stats.breakdowns.referrer, [{ value: 'news.example.com', clicks }]);
      } finally {
        await after.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
