import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventTable } from '../../../src/core/analytics/event-table.ts';
import type { VisitBatch } from '../../../src/core/analytics/visit-batch.ts';
import type { ClickCount } from '../../../src/core/entities.ts';
import { ClickBuffer } from '../../../src/features/analytics/collect/click-buffer.ts';

/** A store that records batches and can be told to fail. */
function fakeStore() {
  const batches: ClickCount[][] = [];
  let failures = 0;
  return {
    batches,
    failNext(times: number) {
      failures = times;
    },
    async addClicks(batch: readonly ClickCount[]) {
      if (failures > 0) {
        failures--;
        throw new Error('store down');
      }
      batches.push(batch.map((count) => ({ ...count })));
    },
    total(field: 'clicks' | 'botHits') {
      return batches.flat().reduce((sum, count) => sum + count[field], 0);
    },
  };
}

describe('ClickBuffer', () => {
  it('adds up clicks and bot hits per link and UTC day', async () => {
    const store = fakeStore();
    let now = Date.UTC(2026, 10, 22, 23, 59, 59);
    const buffer = new ClickBuffer(store, { intervalMs: 60_000, now: () => now });
    buffer.record(1, 'human');
    buffer.record(1, 'human');
    buffer.record(1, 'bot');
    now += 2000;
    buffer.record(1, 'human');
    await buffer.close();
    assert.deepEqual(store.batches[0], [
      { linkId: 1, day: '2026-11-22', clicks: 2, botHits: 1 },
      { linkId: 1, day: '2026-11-23', clicks: 1, botHits: 0 },
    ]);
  });

  it('writes in chunks of at most chunkSize links', async () => {
    const store = fakeStore();
    const buffer = new ClickBuffer(store, { intervalMs: 60_000, chunkSize: 100 });
    for (let id = 0; id < 250; id++) buffer.record(id, 'human');
    await buffer.flush();
    assert.deepEqual(
      store.batches.map((batch) => batch.length),
      [100, 100, 50],
    );
    assert.equal(buffer.flushed, 250);
    await buffer.close();
  });

  it("takes the store's own bound of links per write, and 256 for a store without one", async () => {
    const bounded = { ...fakeStore(), clickLinksPerWrite: 120 };
    const plain = fakeStore();
    for (const store of [bounded, plain]) {
      const buffer = new ClickBuffer(store, { intervalMs: 60_000 });
      for (let id = 0; id < 300; id++) buffer.record(id, 'human');
      await buffer.flush();
      await buffer.close();
    }
    assert.deepEqual(
      bounded.batches.map((batch) => batch.length),
      [120, 120, 60],
    );
    assert.deepEqual(
      plain.batches.map((batch) => batch.length),
      [256, 44],
    );
  });

  it('keeps counts of a failed write for the next flush, so none is lost', async () => {
    const store = fakeStore();
    const errors: unknown[] = [];
    const buffer = new ClickBuffer(store, {
      intervalMs: 60_000,
      chunkSize: 10,
      onError: (e) => errors.push(e),
    });
    for (let id = 0; id < 30; id++) buffer.record(id, 'human');
    store.failNext(1);
    await buffer.flush();
    assert.equal(errors.length, 1);
    buffer.record(5, 'human');
    await buffer.flush();
    assert.equal(store.total('clicks'), 31);
    assert.equal(buffer.pendingLinks, 0);
    await buffer.close();
  });

  it('counts the links of a flush under way as pending until each chunk is written', async () => {
    const gates: Array<() => void> = [];
    const store = {
      addClicks: () => new Promise<void>((resolve) => gates.push(resolve)),
    };
    const buffer = new ClickBuffer(store, { intervalMs: 60_000, chunkSize: 10 });
    for (let id = 0; id < 25; id++) buffer.record(id, 'human');
    const flushing = buffer.flush();
    const chunkAsked = async () => {
      while (gates.length === 0) await new Promise((resolve) => setImmediate(resolve));
    };
    // 25 links in chunks of 10: each chunk's links stay pending until the store answers it.
    for (const pending of [25, 15, 5]) {
      await chunkAsked();
      assert.equal(buffer.pendingLinks, pending);
      (gates.shift() as () => void)();
    }
    await flushing;
    assert.equal(buffer.pendingLinks, 0);
    await buffer.close();
  });

  it('writes a burst of visits in parts, each event once, though a part fails', async () => {
    const written: number[] = [];
    let calls = 0;
    const store = {
      async addClicks(_counts: readonly ClickCount[], visits?: VisitBatch) {
        calls++;
        if (calls === 2) throw new Error('store down');
        const events = EventTable.of(visits?.events ?? []);
        for (let i = 0; i < events.length; i++) written.push(events.at(i));
      },
    };
    const errors: unknown[] = [];
    const buffer = new ClickBuffer(store, {
      intervalMs: 60_000,
      eventsPerWrite: 8192,
      eventLinksPerWrite: 2000,
      onError: (error) => errors.push(error),
      makeVisits: async (raws) => {
        const events = new EventTable(raws.length);
        for (let i = 0; i < raws.length; i++) {
          events.push({
            linkId: raws.linkId(i),
            workspaceId: raws.workspaceId(i),
            at: raws.at(i),
            referrer: 'direct',
            country: 'ZZ',
            device: 'desktop',
            os: 'Linux',
            browser: 'Chrome',
            language: 'en',
            source: 'link',
            visitor: '0123456789abcdef',
          });
        }
        return { events, visitors: [] };
      },
    });
    // Clicks on one link, then spread over many: parts cut by events, then by links.
    const visits = 20_000;
    const linkOf = (at: number) => (at < 10_000 ? 1 : at);
    for (let at = 0; at < visits; at++) {
      buffer.record(linkOf(at), 'human');
      buffer.visit({
        linkId: linkOf(at),
        workspaceId: 1,
        at,
        address: '198.51.100.7',
        userAgent: 'Mozilla/5.0',
        referer: undefined,
        acceptLanguage: undefined,
        trustedCountry: undefined,
        qr: false,
      });
    }
    await buffer.flush();
    assert.equal(errors.length, 1);
    assert.ok(written.length > 0 && written.length < visits, 'the first part went, the second failed');
    assert.equal(buffer.pendingVisits, visits - written.length);
    await buffer.flush();
    assert.equal(buffer.pendingVisits, 0);
    assert.deepEqual(
      [...written].sort((a, b) => a - b),
      Array.from({ length: visits }, (_, at) => at),
    );
    // 10,000 on one link: 8,192 + 1,808 and the first 192 others; then parts of 2,000 links.
    assert.ok(calls >= 7, `one write per part (${calls})`);
    await buffer.close();
  });

  it('retries on close while the store fails for a moment', async () => {
    const store = fakeStore();
    const buffer = new ClickBuffer(store, { intervalMs: 60_000 });
    buffer.record(7, 'human');
    store.failNext(2);
    await buffer.close();
    assert.equal(store.total('clicks'), 1);
  });
});
