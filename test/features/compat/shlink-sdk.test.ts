import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import * as sdk from '@shlinkio/shlink-js-sdk';
import * as contract from '@shlinkio/shlink-js-sdk/api-contract';
import * as fetchClient from '@shlinkio/shlink-js-sdk/fetch';
import * as node from '@shlinkio/shlink-js-sdk/node';
import type { ShlinkApiClient as Client } from '../../../node_modules/@shlinkio/shlink-js-sdk/dist/api/ShlinkApiClient.d.ts';
import type {
  ErrorType as Errors,
  ProblemDetailsError,
} from '../../../node_modules/@shlinkio/shlink-js-sdk/dist/api-contract/errors.d.ts';
import type { ShlinkShortUrl } from '../../../node_modules/@shlinkio/shlink-js-sdk/dist/api-contract/types.d.ts';
import type { FetchHttpClient as Fetch } from '../../../node_modules/@shlinkio/shlink-js-sdk/dist/fetch/FetchHttpClient.d.ts';
import type { NodeHttpClient as Http } from '../../../node_modules/@shlinkio/shlink-js-sdk/dist/node/NodeHttpClient.d.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/**
 * Shlink's own client (@shlinkio/shlink-js-sdk) against a listening Snip (docs/api.md §15): every
 * call of SPEC §15's Shlink list — short URLs, visits, tags, domains, health — and the rest of the
 * client's calls, answered or refused as docs/migrating/shlink.md says.
 */

// The package's declarations re-export without file extensions, which this project's module
// resolution does not follow: the values come from the package, their types from its own files.
const { ShlinkApiClient } = sdk as unknown as { ShlinkApiClient: typeof Client };
const { FetchHttpClient } = fetchClient as unknown as { FetchHttpClient: typeof Fetch };
const { NodeHttpClient } = node as unknown as { NodeHttpClient: typeof Http };
const { ErrorType } = contract as unknown as { ErrorType: typeof Errors };

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
const HOUR = 3_600_000;

let t: TestApp;
let client: Client;
let origin: string;
let clock = Date.now();

async function problemOf(call: Promise<unknown>): Promise<ProblemDetailsError> {
  try {
    await call;
  } catch (error) {
    return error as ProblemDetailsError;
  }
  return assert.fail('expected a problem');
}

function assertProblem(problem: ProblemDetailsError, status: number, type: string): void {
  assert.equal(problem.status, status, JSON.stringify(problem));
  assert.equal(problem.type, type);
  assert.equal(typeof problem.title, 'string');
  assert.equal(typeof problem.detail, 'string');
}

const create = (longUrl: string, extra: Record<string, unknown> = {}) =>
  client.createShortUrl({ longUrl, ...extra });

async function click(code: string, userAgent = CHROME, referer?: string): Promise<void> {
  const headers: Record<string, string> = { 'user-agent': userAgent };
  if (referer) headers.referer = referer;
  const answer = await t.app.inject({ method: 'GET', url: `/${code}`, headers });
  assert.equal(answer.statusCode, 302);
}

before(async () => {
  t = await startTestApp({ now: () => clock, countries: { countryOf: () => 'DE' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  client = new ShlinkApiClient(new FetchHttpClient(), { baseUrl: origin, apiKey: t.apiKey });
});
after(() => t?.close());

describe('Shlink short URLs through the Shlink client', () => {
  it('reports health without needing the key', async () => {
    const health = await client.health();
    assert.equal(health.status, 'pass');
    // The Shlink release whose API Snip answers: Shlink's clients turn features on by it.
    assert.match(health.version, /^5\.\d+\.\d+$/);
    const unkeyed = await fetch(`${origin}/rest/health`);
    assert.equal(unkeyed.status, 200);
    assert.match(String(unkeyed.headers.get('content-type')), /^application\/health\+json/);
  });

  it('creates a short URL with every field and answers it as a ShortUrl', async () => {
    const validUntil = new Date(clock + 48 * HOUR).toISOString();
    const made = await create('https://example.com/full', {
      customSlug: 'full slug',
      tags: ['red', 'blue'],
      title: 'Full page',
      validSince: new Date(clock - HOUR).toISOString(),
      validUntil,
      maxVisits: 5,
      crawlable: true,
      forwardQuery: true,
    });
    assert.equal(made.shortCode, 'full-slug');
    assert.equal(made.shortUrl, 'https://sn.ip/full-slug');
    assert.equal(made.longUrl, 'https://example.com/full');
    assert.equal(made.domain, null);
    assert.equal(made.title, 'Full page');
    assert.deepEqual(made.tags, ['blue', 'red']);
    assert.match(made.dateCreated, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    assert.deepEqual(made.meta, {
      validSince: null,
      validUntil: `${validUntil.slice(0, 19)}+00:00`,
      maxVisits: 5,
    });
    assert.deepEqual(made.visitsSummary, { total: 0, nonBots: 0, bots: 0 });
    assert.equal(made.crawlable, false);
    assert.equal(made.forwardQuery, true);
    assert.equal(made.hasRedirectRules, false);
    assert.deepEqual(await client.getShortUrl({ shortCode: 'full-slug' }), made);
    assert.deepEqual(await client.getShortUrl({ shortCode: 'full-slug', domain: 'sn.ip' }), made);
  });

  it("forwards the short URL's query by default, as Shlink does, unless told not to", async () => {
    const plain = await client.createShortUrl({ longUrl: 'https://example.com/forwarded' });
    assert.equal(plain.forwardQuery, true);
    // The client leaves every false field out of a create, so against Shlink as here the default stands.
    const kept = await client.createShortUrl({ longUrl: 'https://example.com/kept', forwardQuery: false });
    assert.equal(kept.forwardQuery, true);
    const edited = await client.updateShortUrl({ shortCode: plain.shortCode }, { forwardQuery: false });
    assert.equal(edited.forwardQuery, false);
  });

  it('refuses a validSince still to come, which Snip cannot honour', async () => {
    const problem = await problemOf(
      create('https://example.com/later', { validSince: new Date(clock + HOUR).toISOString() }),
    );
    assertProblem(problem, 400, ErrorType.INVALID_ARGUMENT);
    assert.deepEqual(problem.invalidElements, ['validSince']);
  });

  it('answers a long URL already shortened only with findIfExists', async () => {
    const first = await create('https://example.com/twice');
    const again = await problemOf(create('https://example.com/twice'));
    assertProblem(again, 409, 'https://shlink.io/api/error/long-url-already-shortened');
    assert.equal(again.shortCode, first.shortCode);
    assert.equal(again.code, '305');
    const found = await create('https://example.com/twice', { findIfExists: true });
    assert.equal(found.shortCode, first.shortCode);
    const otherSlug = await problemOf(
      create('https://example.com/twice', { customSlug: 'second-one', findIfExists: true }),
    );
    assertProblem(otherSlug, 409, 'https://shlink.io/api/error/long-url-already-shortened');
    const bySlug = await create('https://example.com/slugged', { customSlug: 'slugged' });
    const sameSlug = await create('https://example.com/slugged', {
      customSlug: 'slugged',
      findIfExists: true,
    });
    assert.equal(sameSlug.shortCode, bySlug.shortCode);
  });

  it('refuses a slug in use as non-unique-slug, and an unknown domain as invalid data', async () => {
    await create('https://example.com/taken', { customSlug: 'taken-slug' });
    const taken = await problemOf(create('https://example.com/other', { customSlug: 'taken-slug' }));
    assertProblem(taken, 400, ErrorType.INVALID_SLUG);
    assert.equal(taken.customSlug, 'taken-slug');
    const domain = await problemOf(create('https://example.com/dom', { domain: 'nowhere.example' }));
    assertProblem(domain, 400, ErrorType.INVALID_ARGUMENT);
    assert.deepEqual(domain.invalidElements, ['domain']);
  });

  it('edits a short URL, and null clears the title, validUntil and maxVisits', async () => {
    await create('https://example.com/edit-me', { customSlug: 'edit-me', tags: ['x'] });
    const validUntil = new Date(clock + 72 * HOUR).toISOString();
    const edited = await client.updateShortUrl(
      { shortCode: 'edit-me' },
      { longUrl: 'https://example.com/edited', tags: ['y', 'z'], title: 'Edited', validUntil, maxVisits: 9 },
    );
    assert.equal(edited.longUrl, 'https://example.com/edited');
    assert.deepEqual(edited.tags, ['y', 'z']);
    assert.equal(edited.title, 'Edited');
    assert.deepEqual(edited.meta, {
      validSince: null,
      validUntil: `${validUntil.slice(0, 19)}+00:00`,
      maxVisits: 9,
    });
    const cleared = await client.updateShortUrl(
      { shortCode: 'edit-me' },
      { title: null, validSince: null, validUntil: null, maxVisits: null },
    );
    assert.equal(cleared.title, null);
    assert.deepEqual(cleared.meta, { validSince: null, validUntil: null, maxVisits: null });
    assert.equal(cleared.longUrl, 'https://example.com/edited');
  });

  it('deletes a short URL, which is then not found', async () => {
    await create('https://example.com/doomed', { customSlug: 'doomed' });
    // Its older Node client sends Content-Type: application/json with the empty body of a DELETE.
    const nodeClient = new ShlinkApiClient(new NodeHttpClient(), { baseUrl: origin, apiKey: t.apiKey });
    await nodeClient.deleteShortUrl({ shortCode: 'doomed' });
    assertProblem(
      await problemOf(client.getShortUrl({ shortCode: 'doomed' })),
      404,
      ErrorType.INVALID_SHORTCODE,
    );
    const again = await problemOf(client.deleteShortUrl({ shortCode: 'doomed' }));
    assertProblem(again, 404, ErrorType.INVALID_SHORTCODE);
    assert.equal(again.shortCode, 'doomed');
  });

  it('refuses an unknown key with invalid-api-key', async () => {
    const stranger = new ShlinkApiClient(new FetchHttpClient(), { baseUrl: origin, apiKey: 'not-a-key' });
    assertProblem(await problemOf(stranger.listShortUrls()), 401, ErrorType.INVALID_API_KEY);
  });
});

describe('Shlink short URL lists through the Shlink client', () => {
  const codes = (list: { data: ShlinkShortUrl[] }) => list.data.map((url) => url.shortCode);
  const tagged = { tags: ['lst'] };

  before(async () => {
    await create('https://lists.example/b', { customSlug: 'lst-b', tags: ['lst', 'one'], title: 'Beta' });
    await create('https://lists.example/a', {
      customSlug: 'lst-a',
      tags: ['lst', 'one', 'two'],
      title: 'Alpha',
    });
    await create('https://lists.example/c', {
      customSlug: 'lst-c',
      tags: ['lst'],
      title: 'Gamma',
      maxVisits: 1,
    });
    await create('https://lists.example/d', {
      customSlug: 'lst-d',
      tags: ['lst'],
      title: 'Delta',
      validUntil: new Date(clock + HOUR).toISOString(),
    });
    await click('lst-c');
    await click('lst-b');
    await click('lst-b');
    await t.app.clicks.flush();
  });

  it('filters by tags, any or all, and by a search term', async () => {
    assert.deepEqual(
      codes(await client.listShortUrls({ ...tagged, orderBy: { field: 'shortCode', dir: 'ASC' } })),
      ['lst-a', 'lst-b', 'lst-c', 'lst-d'],
    );
    const any = await client.listShortUrls({ tags: ['one', 'two'], tagsMode: 'any' });
    assert.deepEqual(codes(any).sort(), ['lst-a', 'lst-b']);
    const all = await client.listShortUrls({ tags: ['one', 'two'], tagsMode: 'all' });
    assert.deepEqual(codes(all), ['lst-a']);
    assert.deepEqual(codes(await client.listShortUrls({ searchTerm: 'lists.example/c' })), ['lst-c']);
    assert.deepEqual(codes(await client.listShortUrls({ searchTerm: 'GAMMA' })), ['lst-c']);
  });

  it('orders by each field, either way', async () => {
    const order = async (
      field: 'longUrl' | 'shortCode' | 'title' | 'dateCreated' | 'visits',
      dir: 'ASC' | 'DESC',
    ) => codes(await client.listShortUrls({ ...tagged, orderBy: { field, dir } }));
    assert.deepEqual(await order('longUrl', 'ASC'), ['lst-a', 'lst-b', 'lst-c', 'lst-d']);
    assert.deepEqual(await order('shortCode', 'DESC'), ['lst-d', 'lst-c', 'lst-b', 'lst-a']);
    assert.deepEqual(await order('title', 'ASC'), ['lst-a', 'lst-b', 'lst-d', 'lst-c']);
    assert.deepEqual((await order('visits', 'DESC')).slice(0, 2), ['lst-b', 'lst-c']);
    assert.deepEqual(await order('dateCreated', 'DESC'), (await order('dateCreated', 'ASC')).reverse());
  });

  it('pages with page and itemsPerPage, -1 being every short URL', async () => {
    const second = await client.listShortUrls({
      ...tagged,
      page: '2',
      itemsPerPage: 3,
      orderBy: { field: 'shortCode', dir: 'ASC' },
    });
    assert.deepEqual(codes(second), ['lst-d']);
    assert.deepEqual(second.pagination, {
      currentPage: 2,
      pagesCount: 2,
      itemsPerPage: 3,
      itemsInCurrentPage: 1,
      totalItems: 4,
    });
    const all = await client.listShortUrls({ ...tagged, itemsPerPage: -1 });
    assert.equal(all.data.length, 4);
    assert.equal(all.pagination.pagesCount, 1);
  });

  it('filters by creation dates, visits left and validUntil', async () => {
    const future = new Date(Date.now() + 24 * HOUR).toISOString();
    const past = new Date(Date.now() - 24 * HOUR).toISOString();
    assert.equal((await client.listShortUrls({ ...tagged, startDate: future })).data.length, 0);
    assert.equal((await client.listShortUrls({ ...tagged, endDate: past })).data.length, 0);
    assert.equal(
      (await client.listShortUrls({ ...tagged, startDate: past, endDate: future })).data.length,
      4,
    );
    const open = await client.listShortUrls({ ...tagged, excludeMaxVisitsReached: true });
    assert.deepEqual(codes(open).sort(), ['lst-a', 'lst-b', 'lst-d']);
    clock += 2 * HOUR;
    const current = await client.listShortUrls({ ...tagged, excludePastValidUntil: true });
    assert.deepEqual(codes(current).sort(), ['lst-a', 'lst-b', 'lst-c']);
  });
});
