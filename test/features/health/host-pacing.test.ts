import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InspectOutcome } from '../../../src/core/ports/inspector.ts';
import { checkLink } from '../../../src/features/health/check-link.ts';
import { hostPacer, type PacerClock } from '../../../src/features/health/host-pacer.ts';
import { aLink } from '../../fixtures/link.ts';

/** One request per target host per 10 s (docs/api.md §21), on a fake clock: other hosts go on meanwhile. */

/** A clock whose waits end when the test moves it on to the earliest of them. */
function fakeClock() {
  let now = 0;
  const timers: Array<{ at: number; wake: () => void }> = [];
  const clock: PacerClock = {
    now: () => now,
    wait: (ms) => new Promise((wake) => timers.push({ at: now + ms, wake })),
  };
  return {
    clock,
    /** Runs until nothing waits: each step wakes the earliest timer at its time. */
    async settle(done: Promise<unknown>): Promise<void> {
      let finished = false;
      void done.finally(() => {
        finished = true;
      });
      while (!finished) {
        await new Promise((resolve) => setImmediate(resolve));
        timers.sort((a, b) => a.at - b.at);
        const next = timers.shift();
        if (!next) continue;
        now = next.at;
        next.wake();
      }
    },
  };
}

const page = (url: URL): InspectOutcome => ({ ok: true, title: 'A page', finalUrl: url.href, status: 200 });

describe('the pacing of link checks per host', () => {
  it('never sends two requests to one host within 10 s, and lets another host go on meanwhile', async () => {
    const { clock, settle } = fakeClock();
    const pacer = hostPacer(clock);
    const sent: Array<{ host: string; at: number }> = [];
    const inspector = {
      inspect: async (url: URL) => {
        sent.push({ host: url.hostname, at: clock.now() });
        return page(url);
      },
      close: async () => {},
    };
    const deps = { inspector, pacer, isSocial: () => false, isBlocked: () => false };
    // Three links on a.example (one with a rule and a variant there too), one on b.example.
    const links = [
      aLink({
        id: 1,
        longUrl: 'https://a.example/1',
        rules: [{ if: { country: 'FR' }, url: 'https://a.example/fr' }],
      }),
      aLink({
        id: 2,
        longUrl: 'https://a.example/2',
        test: {
          variants: [
            { url: 'https://a.example/v', weight: 50 },
            { url: 'https://a.example/2', weight: 50 },
          ],
          startedAt: new Date(0),
          endsAt: null,
        },
      }),
      aLink({ id: 3, longUrl: 'https://a.example/3' }),
      aLink({ id: 4, longUrl: 'https://b.example/4' }),
    ];
    const all = Promise.all(links.map((link) => checkLink(deps, link)));
    await settle(all);
    const results = await all;
    assert.ok(results.every((result) => result.code === null && result.status === 200));

    const onA = sent.filter((one) => one.host === 'a.example').map((one) => one.at);
    assert.equal(onA.length, 5, 'each distinct target once: 2 of link 1, 2 of link 2, 1 of link 3');
    for (let i = 1; i < onA.length; i++)
      assert.ok((onA[i] ?? 0) - (onA[i - 1] ?? 0) >= 10_000, `a.example at ${onA}`);
    assert.deepEqual(
      sent.filter((one) => one.host === 'b.example').map((one) => one.at),
      [0],
      'b.example did not wait for a.example',
    );
    assert.equal(pacer.queued(), 0);
  });
});
