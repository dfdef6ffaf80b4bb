import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { UnavailableError } from '../../../src/core/errors.ts';
import { type CachedLink, LinkCache } from '../../../src/features/redirect/link-cache.ts';

/** A loader that answers what the test sets, counting its calls. */
function loader() {
  const state = {
    calls: 0,
    answer: (_code: string): Promise<CachedLink | undefined> => Promise.resolve(undefined),
  };
  const load = (code: string) => {
    state.calls++;
    return state.answer(code);
  };
  return { state, load };
}

const first: CachedLink = {
  id: 1,
  workspaceId: 1,
  location: 'https://example.com/first',
  hosts: ['example.com'],
};
const second: CachedLink = {
  id: 1,
  workspaceId: 1,
  location: 'https://example.com/second',
  hosts: ['example.com'],
};

describe('the hot-link cache', () => {
  it('trusts an entry for its TTL, then reads the store again', async () => {
    const { state, load } = loader();
    const cache = new LinkCache(load, { max: 10, ttlMs: 30, missTtlMs: 1000 });
    cache.remember('Abcdefg', first);
    assert.deepEqual(cache.peek('Abcdefg'), first);
    await sleep(120);
    assert.equal(cache.peek('Abcdefg'), undefined, 'an expired entry is not served as a hit');
    state.answer = async () => second;
    assert.deepEqual(await cache.load('Abcdefg'), second);
    assert.equal(state.calls, 1);
    assert.deepEqual(cache.peek('Abcdefg'), second);
  });

  it('serves an expired link while the store cannot answer, and nothing it never had', async () => {
    const { state, load } = loader();
    const cache = new LinkCache(load, { max: 10, ttlMs: 30, missTtlMs: 1000 });
    cache.remember('Abcdefg', first);
    await sleep(120);
    state.answer = async () => {
      throw new UnavailableError('down');
    };
    assert.deepEqual(await cache.load('Abcdefg'), first);
    // Served from memory again for a while, without asking the store at every request.
    assert.deepEqual(cache.peek('Abcdefg'), first);
    await assert.rejects(cache.load('Zzzzzzz'), UnavailableError);
  });

  it('does not hide a fault that is not the store being unreachable', async () => {
    const { state, load } = loader();
    const cache = new LinkCache(load, { max: 10, ttlMs: 30, missTtlMs: 1000 });
    cache.remember('Abcdefg', first);
    await sleep(120);
    state.answer = async () => {
      throw new RangeError('a bug');
    };
    await assert.rejects(cache.load('Abcdefg'), RangeError);
  });

  it('drops every entry on clear(), as when changes may have been missed', async () => {
    const { state, load } = loader();
    const cache = new LinkCache(load, { max: 10, ttlMs: 60_000, missTtlMs: 1000 });
    cache.remember('Abcdefg', first);
    cache.remember('Hijklmn', first);
    cache.clear();
    assert.equal(cache.size, 0);
    assert.equal(cache.peek('Abcdefg'), undefined);
    state.answer = async () => second;
    assert.deepEqual(await cache.load('Abcdefg'), second);
  });
});

describe("the hot-link cache and a renamed link's aliases", () => {
  it("forgets an alias's entry with its link's code, and no other", async () => {
    const { state, load } = loader();
    const cache: LinkCache = new LinkCache(load, { max: 10, ttlMs: 60_000, missTtlMs: 1000 });
    state.answer = async (code) => {
      if (code === 'old-code' || code === 'older-code') cache.noteAlias(code, 'new-code');
      return first;
    };
    await cache.load('old-code');
    await cache.load('older-code');
    await cache.load('other-code');
    assert.deepEqual(cache.peek('old-code'), first);
    cache.invalidate('new-code');
    assert.equal(cache.peek('old-code'), undefined);
    assert.equal(cache.peek('older-code'), undefined);
    assert.deepEqual(cache.peek('other-code'), first);
    // Told once: loaded again, the alias is noted again.
    await cache.load('old-code');
    cache.invalidate('new-code');
    assert.equal(cache.peek('old-code'), undefined);
  });

  it('keeps no answer for an alias whose link changed while it loaded', async () => {
    const { state, load } = loader();
    const cache: LinkCache = new LinkCache(load, { max: 10, ttlMs: 60_000, missTtlMs: 1000 });
    let release = () => {};
    state.answer = (code) => {
      cache.noteAlias(code, 'new-code');
      return new Promise((resolve) => {
        release = () => resolve(first);
      });
    };
    const loading = cache.load('old-code');
    cache.invalidate('new-code');
    release();
    assert.deepEqual(await loading, first);
    assert.equal(cache.peek('old-code'), undefined);
  });
});
