import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import * as sdk from '@shlinkio/shlink-js-sdk';
import * as contract from '@shlinkio/shlink-js-sdk/api-contract';
import * as fetchClient from '@shlinkio/shlink-js-sdk/fetch';
import Bowser from 'bowser';
import type { ShlinkApiClient as Client } from '../../../node_modules/@shlinkio/shlink-js-sdk/dist/api/ShlinkApiClient.d.ts';
import type {
  ErrorType as Errors,
  ProblemDetailsError,
} from '../../../node_modules/@shlinkio/shlink-js-sdk/dist/api-contract/errors.d.ts';
import type { ShlinkVisitsList } from '../../../node_modules/@shlinkio/shlink-js-sdk/dist/api-contract/types.d.ts';
import type { FetchHttpClient as Fetch } from '../../../node_modules/@shlinkio/shlink-js-sdk/dist/fetch/FetchHttpClient.d.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/**
 * Shlink's own client against a listening Snip (docs/api.md §15): visits of a short URL, a tag, a
 * domain, the overview, orphan and non-orphan visits; tags; domains; redirect rules; the calls Snip
 * refuses in Shlink's form; and the one-step GET /short-urls/shorten.
 */

// The package's declarations re-export without file extensions, which this project's module
// resolution does not follow: the values come from the package, their types from its own files.
const { ShlinkApiClient } = sdk as unknown as { ShlinkApiClient: typeof Client };
const { FetchHttpClient } = fetchClient as unknown as { FetchHttpClient: typeof Fetch };
const { ErrorType } = contract as unknown as { ErrorType: typeof Errors };

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

let t: TestApp;
let client: Client;
let origin: string;

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

async function click(code: string, userAgent: string, referer?: string): Promise<void> {
  const headers: Record<string, string> = { 'user-agent': userAgent };
  if (referer) headers.referer = referer;
  const answer = await t.app.inject({ method: 'GET', url: `/${code}`, headers });
  assert.equal(answer.statusCode, 302);
}

const total = (list: ShlinkVisitsList) => list.pagination.totalItems;

/** The TXT records the test's domains are verified by. */
const txtRecords = new Map<string, string>();

before(async () => {
  t = await startTestApp({
    countries: { countryOf: () => 'DE' },
    resolveTxt: async (name) => [[txtRecords.get(name) ?? '']],
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  client = new ShlinkApiClient(new FetchHttpClient(), { baseUrl: origin, apiKey: t.apiKey });
  await client.createShortUrl({
    longUrl: 'https://example.com/v1',
    customSlug: 'vis-one',
    tags: ['hot', 'news'],
  });
  await client.createShortUrl({ longUrl: 'https://example.com/v2', customSlug: 'vis-two', tags: ['news'] });
  await client.createShortUrl({ longUrl: 'https://example.com/v3', customSlug: 'vis-three', tags: ['cold'] });
  await click('vis-one', CHROME, 'https://news.example/today');
  await click('vis-one', CHROME);
  await click('vis-one', BOT);
  await click('vis-two', CHROME);
  await t.app.clicks.flush();
});
after(() => t?.close());

describe('Shlink visits through the Shlink client', () => {
  it("lists a short URL's visits: referrer host, families, country, the short URL visited", async () => {
    const visits = await client.getShortUrlVisits({ shortCode: 'vis-one' });
    assert.equal(visits.data.length, 2);
    assert.equal(total(visits), 2);
    const [newest, oldest] = visits.data;
    assert.equal(newest?.referer, '');
    assert.equal(oldest?.referer, 'news.example');
    // Rebuilt from the families Snip keeps, in tokens a parser reads (Shlink's web client uses bowser).
    const agent = Bowser.getParser(String(oldest?.userAgent));
    assert.deepEqual([agent.getOSName(), agent.getBrowserName()], ['Windows', 'Chrome']);
    assert.notEqual(oldest?.userAgent, CHROME, "never the visitor's own user agent");
    assert.match(String(oldest?.date), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    assert.equal(oldest?.potentialBot, false);
    assert.equal(oldest?.visitedUrl, 'https://sn.ip/vis-one');
    assert.equal(oldest?.visitLocation?.countryCode, 'DE');
    assert.equal(oldest?.visitLocation?.countryName, 'Germany');
    const paged = await client.getShortUrlVisits({ shortCode: 'vis-one' }, { page: 2, itemsPerPage: 1 });
    assert.deepEqual(paged.pagination, {
      currentPage: 2,
      pagesCount: 2,
      itemsPerPage: 1,
      itemsInCurrentPage: 1,
      totalItems: 2,
    });
    const later = new Date(Date.now() + 3_600_000).toISOString();
    assert.equal(total(await client.getShortUrlVisits({ shortCode: 'vis-one' }, { startDate: later })), 0);
    const missing = await problemOf(client.getShortUrlVisits({ shortCode: 'no-such-code' }));
    assertProblem(missing, 404, ErrorType.INVALID_SHORTCODE);
  });

  it('lists the visits of a tag and of a domain', async () => {
    assert.equal(total(await client.getTagVisits('news')), 3);
    const tagged = (await client.getTagVisits('hot')).data.map(
      (visit: { visitedUrl: string | null }) => visit.visitedUrl,
    );
    assert.ok(
      tagged.length > 0 && tagged.every((url: string | null) => url?.startsWith('https://sn.ip/')),
      String(tagged),
    );
    assert.equal(total(await client.getTagVisits('hot')), 2);
    assert.equal(total(await client.getTagVisits('cold')), 0);
    assert.equal(total(await client.getTagVisits('news', { domain: 'DEFAULT' })), 3);
    assertProblem(await problemOf(client.getTagVisits('no-such-tag')), 404, ErrorType.TAG_NOT_FOUND);
    assert.equal(total(await client.getDomainVisits('DEFAULT')), 3);
    assert.equal(total(await client.getDomainVisits('sn.ip')), 3);
    const unknown = await problemOf(client.getDomainVisits('nowhere.example'));
    assertProblem(unknown, 404, ErrorType.DOMAIN_NOT_FOUND);
    assert.equal(unknown.authority, 'nowhere.example');
  });

  it('answers the overview, the non-orphan visits, and no orphan visits', async () => {
    assert.deepEqual(await client.getVisitsOverview(), {
      nonOrphanVisits: { total: 4, nonBots: 3, bots: 1 },
      orphanVisits: { total: 0, nonBots: 0, bots: 0 },
    });
    assert.equal(total(await client.getNonOrphanVisits()), 3);
    assert.equal((await client.getNonOrphanVisits({ excludeBots: true })).data.length, 3);
    const orphans = await client.getOrphanVisits({ type: 'invalid_short_url' });
    assert.deepEqual(orphans.data, []);
    assert.equal(total(orphans), 0);
    assert.deepEqual(await client.deleteOrphanVisits(), { deletedVisits: 0 });
  });

  it("counts a short URL's visits in its summary, bots apart", async () => {
    const one = await client.getShortUrl({ shortCode: 'vis-one' });
    assert.deepEqual(one.visitsSummary, { total: 3, nonBots: 2, bots: 1 });
  });
});

describe('Shlink tags and domains through the Shlink client', () => {
  it('lists the tags, and their stats', async () => {
    assert.deepEqual((await client.listTags()).data, ['cold', 'hot', 'news']);
    const stats = await client.tagsStats();
    assert.deepEqual(
      stats.data.find((stat: { tag: string }) => stat.tag === 'news'),
      { tag: 'news', shortUrlsCount: 2, visitsSummary: { total: 4, nonBots: 3, bots: 1 } },
    );
  });

  it('renames a tag, refusing a name in use and a tag there is not', async () => {
    assert.deepEqual(await client.editTag({ oldName: 'cold', newName: 'frozen' }), {
      oldName: 'cold',
      newName: 'frozen',
    });
    assert.deepEqual((await client.getShortUrl({ shortCode: 'vis-three' })).tags, ['frozen']);
    const conflict = await problemOf(client.editTag({ oldName: 'hot', newName: 'news' }));
    assertProblem(conflict, 409, ErrorType.TAG_CONFLICT);
    const missing = await problemOf(client.editTag({ oldName: 'no-such-tag', newName: 'x' }));
    assertProblem(missing, 404, ErrorType.TAG_NOT_FOUND);
  });

  it('deletes tags from every short URL', async () => {
    await client.deleteTags(['hot', 'frozen']);
    assert.deepEqual((await client.listTags()).data, ['news']);
    assert.deepEqual((await client.getShortUrl({ shortCode: 'vis-one' })).tags, ['news']);
  });

  it('lists the domains, the default first, with where each sends / and unknown codes', async () => {
    const headers = { 'x-api-key': t.apiKey, 'content-type': 'application/json' };
    const v1 = (method: 'POST' | 'PATCH', url: string, body: unknown = {}) =>
      t.app.inject({ method, url: `/api/v1${url}`, headers, payload: JSON.stringify(body) });
    const added = (await v1('POST', '/domains', { host: 'go.brand.example' })).json();
    txtRecords.set(added.verification.record, added.verification.value);
    assert.equal((await v1('POST', '/domains/go.brand.example/verify')).json().verified, true);
    const redirects = {
      root_redirect: 'https://brand.example/',
      not_found_redirect: 'https://brand.example/404',
    };
    assert.equal((await v1('PATCH', '/domains/go.brand.example', redirects)).statusCode, 200);
    const domains = await client.listDomains();
    const empty = { baseUrlRedirect: null, regular404Redirect: null, invalidShortUrlRedirect: null };
    assert.deepEqual(domains.data[0], { domain: 'sn.ip', isDefault: true, redirects: empty });
    assert.deepEqual(domains.data[1], {
      domain: 'go.brand.example',
      isDefault: false,
      redirects: {
        baseUrlRedirect: 'https://brand.example/',
        regular404Redirect: 'https://brand.example/404',
        invalidShortUrlRedirect: 'https://brand.example/404',
      },
    });
    assert.deepEqual(domains.defaultRedirects, empty);
  });
});

describe('the rest of the Shlink client', () => {
  it('sets and lists redirect rules as Snip targeting rules', async () => {
    const set = await client.setShortUrlRedirectRules(
      { shortCode: 'vis-two' },
      {
        redirectRules: [
          {
            longUrl: 'https://example.com/android',
            conditions: [{ type: 'device', matchKey: null, matchValue: 'android' }],
          },
        ],
      },
    );
    const expected = {
      defaultLongUrl: 'https://example.com/v2',
      redirectRules: [
        {
          longUrl: 'https://example.com/android',
          priority: 1,
          conditions: [{ type: 'device', matchKey: null, matchValue: 'android' }],
        },
      ],
    };
    assert.deepEqual(set, expected);
    assert.deepEqual(await client.getShortUrlRedirectRules({ shortCode: 'vis-two' }), expected);
    assert.equal((await client.getShortUrl({ shortCode: 'vis-two' })).hasRedirectRules, true);
    const other = await problemOf(
      client.setShortUrlRedirectRules(
        { shortCode: 'vis-two' },
        {
          redirectRules: [
            {
              longUrl: 'https://example.com/q',
              conditions: [{ type: 'query-param', matchKey: 'a', matchValue: 'b' }],
            },
          ],
        },
      ),
    );
    assertProblem(other, 400, ErrorType.INVALID_ARGUMENT);
  });

  it("refuses what Snip does not do in Shlink's form", async () => {
    const visits = await problemOf(client.deleteShortUrlVisits({ shortCode: 'vis-one' }));
    assertProblem(visits, 501, 'https://shlink.io/api/error/not-supported');
    const redirects = await problemOf(
      client.editDomainRedirects({ domain: 'sn.ip', baseUrlRedirect: 'https://a.example' }),
    );
    assertProblem(redirects, 501, 'https://shlink.io/api/error/not-supported');
    assertProblem(await problemOf(client.mercureInfo()), 501, ErrorType.MERCURE_NOT_CONFIGURED);
  });

  it('shortens in one step with the key in the query, as text or JSON', async () => {
    const query = (params: Record<string, string>) =>
      `${origin}/rest/v3/short-urls/shorten?${new URLSearchParams(params).toString()}`;
    const asText = await fetch(
      query({ apiKey: t.apiKey, longUrl: 'https://example.com/one-step', format: 'txt' }),
    );
    assert.equal(asText.status, 200);
    assert.match(String(asText.headers.get('content-type')), /^text\/plain/);
    const shortUrl = await asText.text();
    assert.match(shortUrl, /^https:\/\/sn\.ip\/[A-Za-z0-9_-]{7}$/);
    const asJson = await fetch(
      query({ apiKey: t.apiKey, longUrl: 'https://example.com/one-step', format: 'json' }),
    );
    assert.equal(asJson.status, 200);
    assert.equal(((await asJson.json()) as { shortUrl: string }).shortUrl, shortUrl);
    const keyless = await fetch(query({ longUrl: 'https://example.com/one-step' }));
    assert.equal(keyless.status, 401);
    const problem = (await keyless.json()) as ProblemDetailsError;
    assert.equal(problem.type, ErrorType.INVALID_AUTHORIZATION);
    assert.equal(problem.param, 'apiKey');
  });
});
