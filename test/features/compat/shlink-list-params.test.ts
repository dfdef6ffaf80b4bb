import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { foldListParams, MAX_LIST_VALUES } from '../../../src/features/compat/list-params.ts';
import { type Answer, send, startTestApp, type TestApp } from '../../helper.ts';

/**
 * Shlink's list parameters in every spelling its clients send (docs/api.md §15): `tags[]=` (the JS
 * client), `tags[0]=` (PHP's http_build_query, so the PHP SDK) and `tags=` repeated, in the query
 * and in a form; a bracket that is no list entry is Shlink's invalid-data, never a 500.
 */

const TAGS: ReadonlySet<string> = new Set(['tags']);
let t: TestApp;

function rest(method: string, path: string, form?: string) {
  const headers: Record<string, string> = { 'x-api-key': t.apiKey };
  if (form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
  return send(t.app, {
    method: method as 'GET',
    url: `/rest/v3${path}`,
    headers,
    ...(form === undefined ? {} : { payload: form }),
  });
}

async function make(slug: string, tags: string[]): Promise<void> {
  const answer = await send(t.app, {
    method: 'POST',
    url: '/rest/v3/short-urls',
    headers: { 'x-api-key': t.apiKey, 'content-type': 'application/json' },
    payload: JSON.stringify({ longUrl: `https://example.com/${slug}`, customSlug: slug, tags }),
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
}

const codesOf = (answer: Answer) => {
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const list = answer.body.shortUrls as { data: Array<{ shortCode: string }> };
  return list.data.map((url) => url.shortCode).sort();
};

function assertInvalidTags(answer: Answer): void {
  assert.equal(answer.status, 400, JSON.stringify(answer.body));
  assert.equal(answer.body.type, 'https://shlink.io/api/error/invalid-data');
  assert.deepEqual(answer.body.invalidElements, ['tags']);
}

before(async () => {
  t = await startTestApp();
  await make('red-one', ['red']);
  await make('blue-one', ['blue']);
  await make('both-one', ['red', 'blue']);
  await make('green-one', ['green']);
});
after(() => t?.close());

describe('folding list parameters', () => {
  const fold = (query: string) => foldListParams(new URLSearchParams(query), TAGS);

  it('reads tags[]=, tags[0]= and repeated tags= as one list', () => {
    for (const query of ['tags[]=a&tags[]=b', 'tags[0]=a&tags[1]=b', 'tags=a&tags=b']) {
      assert.deepEqual(
        fold(query),
        { fields: Object.assign(Object.create(null), { tags: ['a', 'b'] }) },
        query,
      );
    }
  });

  it('lists mixed spellings in order of index and appearance, out-of-order indexes by index', () => {
    const values = (query: string) => {
      const folded = fold(query);
      return 'fields' in folded ? folded.fields.tags : folded.bad;
    };
    assert.deepEqual(values('tags[0]=a&tags[]=b&tags=c'), ['a', 'b', 'c']);
    assert.deepEqual(values('tags[1]=b&tags[0]=a'), ['a', 'b']);
    assert.deepEqual(values('tags[]=a&tags[5]=c&tags[2]=b&tags[]=d'), ['a', 'b', 'c', 'd']);
    assert.deepEqual(values('tags[0]=a'), ['a']);
    assert.deepEqual(values('tags[999999999]=far'), ['far']);
    assert.equal(values('tags=a'), 'a');
  });

  it('leaves every other name as it came and names a bad list entry', () => {
    const folded = foldListParams(new URLSearchParams('tags[0]=a&orderBy[]=x&page=2'), TAGS, {
      'orderBy[]': 'x',
      page: '2',
      'tags[0]': 'a',
    });
    assert.ok('fields' in folded);
    assert.deepEqual({ ...folded.fields }, { 'orderBy[]': 'x', page: '2', tags: ['a'] });
    for (const query of ['tags[x]=a', 'tags[0][1]=a', 'tags[-1]=a', 'tags[1234567890]=a', 'tags[=a']) {
      const bad = fold(query);
      assert.ok('bad' in bad, query);
      assert.equal(bad.bad.name, 'tags', query);
    }
    const many = Array.from({ length: MAX_LIST_VALUES + 1 }, (_, i) => `tags[${i}]=t`).join('&');
    assert.ok('bad' in fold(many));
    assert.ok('fields' in fold(many.slice(0, many.lastIndexOf('&'))));
  });
});

describe('Shlink list parameters in every spelling', () => {
  it('filters the short URLs by tags given as tags[]=, tags[0]= and tags=', async () => {
    for (const tags of ['tags[]=red&tags[]=blue', 'tags[0]=red&tags[1]=blue', 'tags=red&tags=blue']) {
      assert.deepEqual(
        codesOf(await rest('GET', `/short-urls?${tags}`)),
        ['blue-one', 'both-one', 'red-one'],
        tags,
      );
      assert.deepEqual(codesOf(await rest('GET', `/short-urls?${tags}&tagsMode=all`)), ['both-one'], tags);
    }
    assert.deepEqual(codesOf(await rest('GET', '/short-urls?tags[1]=red&tags[0]=blue&tagsMode=all')), [
      'both-one',
    ]);
    assert.deepEqual(codesOf(await rest('GET', '/short-urls?tags[0]=green&tags[]=blue&tags=red')).length, 4);
  });

  it('refuses excludeTags in any spelling, as it refuses excludeTags[]', async () => {
    for (const query of ['excludeTags[0]=red', 'excludeTags[]=red', 'excludeTags=red']) {
      const answer = await rest('GET', `/short-urls?${query}`);
      assert.equal(answer.status, 400, query);
      assert.deepEqual(answer.body.invalidElements, ['excludeTags'], query);
    }
  });

  it('answers a bracket that is no list entry, or too many values, with invalid-data naming tags', async () => {
    const many = Array.from({ length: MAX_LIST_VALUES + 1 }, () => 'tags[]=t').join('&');
    for (const query of ['tags[x]=red', 'tags[0][1]=red', `${many}`]) {
      assertInvalidTags(await rest('GET', `/short-urls?${query}`));
      assertInvalidTags(await rest('DELETE', `/tags?${query}`));
    }
    assertInvalidTags(await rest('POST', '/short-urls', 'longUrl=https://example.com/x&tags[a]=b'));
  });

  it('reads the tags of a form in PHP spelling, by index', async () => {
    const made = await rest(
      'POST',
      '/short-urls',
      'longUrl=https://example.com/form&tags[1]=second&tags[0]=first',
    );
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.deepEqual(made.body.tags, ['first', 'second']);
  });

  it('deletes the tags named as tags[0]=, as the PHP SDK sends them', async () => {
    await make('gone-one', ['old-a', 'old-b', 'kept']);
    const deleted = await rest('DELETE', '/tags?tags[0]=old-a&tags[1]=old-b');
    assert.equal(deleted.status, 204);
    const tags = await rest('GET', '/tags');
    const names = (tags.body.tags as { data: string[] }).data;
    assert.ok(!names.includes('old-a') && !names.includes('old-b'), names.join());
    assert.ok(names.includes('kept'));
    const link = await rest('GET', '/short-urls/gone-one');
    assert.deepEqual(link.body.tags, ['kept']);
  });
});
