import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { MemoryVisitors } from '../../../src/adapters/memory/visitors.ts';
import type { Visitors } from '../../../src/core/ports/visitors.ts';
import { callApi } from '../../fixtures/api-client.ts';
import { STORES } from '../../fixtures/stores.ts';
import { send, type TestApp } from '../../helper.ts';

/**
 * The split of an A/B test at the redirect (docs/api.md §20.x): rules first, then a variant by
 * weight, the same visitor to the same variant all day, on the route and below the router alike;
 * each click records its variant and the stats break down by it.
 */

const DAY = 86_400_000;
const START = Date.parse('2026-06-01T08:00:00Z');
const agent = (i: number) => `Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0.${i} Safari/537.36`;

/** The day's secret made from a fixed key, so the split is the same on every run. */
function fixedVisitors(): Visitors {
  const sets = new MemoryVisitors();
  return {
    secretOf: async (day) => createHmac('sha256', 'ab-split-test').update(day).digest(),
    add: (day, members) => sets.add(day, members),
  };
}

for (const kind of STORES) {
  describe(`the A/B split on ${kind.name}`, { skip: kind.skip }, () => {
    let t: TestApp;
    let clock = START;
    let n = 0;
    const A = 'https://a.example/landing';
    const B = 'https://b.example/landing';

    before(async () => {
      t = await kind.start({ now: () => clock, visitors: fixedVisitors(), env: { CLICK_FLUSH_MS: '60000' } });
    });
    after(() => t?.close());

    async function tested(body: Record<string, unknown> = {}): Promise<string> {
      const answer = await callApi(t.app, 'POST', '/links', {
        key: t.apiKey,
        body: {
          url: `https://example.com/ab-${++n}`,
          variants: [
            { url: A, weight: 30 },
            { url: B, weight: 70 },
          ],
          ...body,
        },
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body.short_code as string;
    }
    const visit = async (code: string, i: number, language = 'en') => {
      const answer = await send(t.app, {
        method: 'GET',
        url: `/${code}`,
        headers: { 'user-agent': agent(i), 'accept-language': language },
      });
      assert.equal(answer.status, 302);
      return answer.headers.location as string;
    };
    const variants = async (code: string) => {
      await t.app.clicks.flush();
      const stats = await callApi(t.app, 'GET', `/links/${code}/stats?from=2026-05-30&to=2026-06-05`, {
        key: t.apiKey,
      });
      assert.equal(stats.status, 200, JSON.stringify(stats.body));
      return Object.fromEntries(
        (stats.body.variants as Array<{ value: string; clicks: number }>).map((row) => [
          row.value,
          row.clicks,
        ]),
      );
    };

    it('splits 2,000 distinct visitors by weight (30/70) and breaks the stats down by variant', async () => {
      const code = await tested();
      let a = 0;
      let b = 0;
      for (let i = 0; i < 2000; i++) {
        const location = await visit(code, i);
        if (location === A) a++;
        else if (location === B) b++;
      }
      assert.equal(a + b, 2000, 'every visitor goes to a variant');
      assert.ok(a > 480 && a < 720, `A got ${a} of 2,000`);
      assert.deepEqual(await variants(code), { '1': a, '2': b });
    });

    it('sends one visitor to the same variant all day, and may send them elsewhere the next day', async () => {
      const code = await tested();
      const firsts: string[] = [];
      for (let i = 0; i < 20; i++) {
        const first = await visit(code, i);
        firsts.push(first);
        for (let again = 0; again < 3; again++) assert.equal(await visit(code, i), first);
      }
      clock += 6 * 3600_000;
      for (let i = 0; i < 20; i++) assert.equal(await visit(code, i), firsts[i], 'later the same day');
      clock += DAY;
      const moved = [];
      for (let i = 0; i < 20; i++) if ((await visit(code, i)) !== firsts[i]) moved.push(i);
      assert.ok(moved.length > 0, 'a new day, a new visitor id: some land elsewhere');
      clock = START;
    });

    it('applies targeting rules first: a click a rule took has no variant', async () => {
      const code = await tested({ rules: [{ if: { language: 'fr' }, url: 'https://example.com/fr' }] });
      for (let i = 0; i < 10; i++) assert.equal(await visit(code, i, 'fr'), 'https://example.com/fr');
      const others = [];
      for (let i = 0; i < 10; i++) others.push(await visit(code, i, 'de'));
      assert.ok(others.every((location) => location === A || location === B));
      const counted = await variants(code);
      assert.equal((counted['1'] ?? 0) + (counted['2'] ?? 0), 10, 'only the clicks the split took');
    });

    it('answers below the router with the same variant, recorded with the click', async () => {
      const code = await tested();
      const expected: string[] = [];
      for (let i = 0; i < 10; i++) expected.push(await visit(code, i));
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as { port: number };
      for (let i = 0; i < 10; i++) {
        const answer = await fetch(`http://127.0.0.1:${port}/${code}`, {
          redirect: 'manual',
          headers: { 'user-agent': agent(i), 'accept-language': 'en' },
        });
        assert.equal(answer.headers.get('location'), expected[i]);
      }
      const counted = await variants(code);
      const a = expected.filter((location) => location === A).length;
      assert.deepEqual(
        counted,
        Object.fromEntries(
          [
            ['1', 2 * a],
            ['2', 2 * (10 - a)],
          ].filter(([, c]) => c),
        ),
      );
    });
  });
}
