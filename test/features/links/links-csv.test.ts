import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Link } from '../../../src/core/entities.ts';
import { Refusal } from '../../../src/core/errors.ts';
import type { LinkPage } from '../../../src/core/link-query.ts';
import { baseOrigins } from '../../../src/core/short-url.ts';
import { csvExports, EXPORTS_PER_ACCOUNT, linksCsv } from '../../../src/features/links/api/links-csv.ts';
import { aLink } from '../../fixtures/link.ts';

const actor = {
  keyId: 1,
  workspaceId: 7,
  plan: { id: 1, name: 'p', apiAccess: true, urlQuota: 10, rateLimitPerHour: 10 },
};

function link(id: number): Link {
  const at = new Date(Date.UTC(2026, 0, 1) - id * 1000);
  return aLink({
    id,
    code: `code${id}`,
    workspaceId: 7,
    longUrl: `https://example.com/${id}`,
    createdAt: at,
    updatedAt: at,
  });
}

describe('the CSV export of an account', () => {
  it('lets the event loop turn between the pages it reads', async () => {
    const pages = [1, 2, 3].map((n) => ({ links: [link(n)], more: n < 3 }) as unknown as LinkPage);
    let read = 0;
    const store = {
      listLinks: async () => pages[read++] as LinkPage,
      tagsOf: async () => new Map(),
      listGroups: async () => [],
    };
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    const lines: string[] = [];
    try {
      const at: number[] = [];
      for await (const chunk of linksCsv(store, baseOrigins(new URL('https://sn.ip/')), actor)) {
        lines.push(chunk);
        at.push(turns);
      }
      // The header, then one chunk a page; a timer ran between the pages.
      assert.equal(lines.length, 4);
      assert.ok((at[3] ?? 0) > (at[1] ?? 0), `timer turns seen at each chunk: ${at}`);
    } finally {
      clearInterval(ticking);
    }
  });

  it('runs at most two exports of one account at once; a third is 429 until one closes', async () => {
    let open = (): void => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const exports = csvExports(async function* () {
      await gate;
      yield 'x\r\n';
    });
    const streams = Array.from({ length: EXPORTS_PER_ACCOUNT }, () => exports(actor));
    assert.throws(
      () => exports(actor),
      (error) => error instanceof Refusal && error.code === '429' && error.facts.retryAfterSeconds === 5,
    );
    assert.ok(exports({ ...actor, workspaceId: 8 }), 'another account is not held up');
    const closed = new Promise((resolve) => streams[0]?.once('close', resolve));
    streams[0]?.destroy();
    await closed;
    const next = exports(actor);
    open();
    const chunks: string[] = [];
    for await (const chunk of next) chunks.push(String(chunk));
    assert.deepEqual(chunks, ['x\r\n']);
    for (const stream of streams) stream.destroy();
  });
});
