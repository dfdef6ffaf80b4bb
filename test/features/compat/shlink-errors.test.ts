import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { keyWithScopes } from '../../fixtures/api-client.ts';
import { type Answer, FakeInspector, send, startTestApp, type TestApp } from '../../helper.ts';

/**
 * What the Shlink API (docs/api.md §15) answers to input it cannot take: Shlink's problem details
 * with `invalid-data` naming each wrong field, its auth problems, Snip's refusals under Shlink's
 * types with Snip's code kept — and never a 500.
 */

const BASE = 'https://shlink.io/api/error/';
const inspector = new FakeInspector();
let t: TestApp;

function rest(
  method: string,
  path: string,
  options: { key?: string | null; body?: unknown; raw?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (options.key !== null) headers['x-api-key'] = options.key ?? t.apiKey;
  let payload: string | undefined;
  if (options.raw !== undefined || options.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = options.raw ?? JSON.stringify(options.body);
  }
  return send(t.app, {
    method: method as 'GET',
    url: `/rest${path}`,
    headers,
    ...(payload ? { payload } : {}),
  });
}

function assertProblem(answer: Answer, status: number, type: string): void {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.match(String(answer.headers['content-type']), /^application\/problem\+json/);
  assert.equal(answer.body.type, `${BASE}${type}`);
  assert.equal(answer.body.status, status);
  assert.equal(typeof answer.body.title, 'string');
  assert.equal(typeof answer.body.detail, 'string');
}

function assertInvalid(answer: Answer, elements: string[]): void {
  assertProblem(answer, 400, 'invalid-data');
  assert.deepEqual(answer.body.invalidElements, elements);
}

before(async () => {
  t = await startTestApp({ inspector });
  const made = await rest('POST', '/v3/short-urls', {
    body: { longUrl: 'https://example.com/here', customSlug: 'here' },
  });
  assert.equal(made.status, 200);
});
after(() => t?.close());

describe('Shlink list parameters that are not valid', () => {
  const cases: Array<[string, string[]]> = [
    ['page=0', ['page']],
    ['page=-5', ['page']],
    ['page=abc', ['page']],
    ['itemsPerPage=abc', ['itemsPerPage']],
    ['itemsPerPage=0', ['itemsPerPage']],
    ['itemsPerPage=-5', ['itemsPerPage']],
    ['orderBy=colour-ASC', ['orderBy']],
    ['orderBy=title-UP', ['orderBy']],
    ['tagsMode=some', ['tagsMode']],
    ['startDate=yesterday', ['startDate']],
    ['endDate=2025-02-30', ['endDate']],
    ['excludeMaxVisitsReached=maybe', ['excludeMaxVisitsReached']],
    ['excludePastValidUntil=2', ['excludePastValidUntil']],
    ['excludeTags[]=x', ['excludeTags']],
    ['orderBy=invalid&tagsMode=invalid', ['orderBy', 'tagsMode']],
    ['searchTerm=%00', ['searchTerm']],
  ];
  for (const [query, elements] of cases) {
    it(`answers ${query} with invalid-data naming ${elements.join(', ')}`, async () => {
      assertInvalid(await rest('GET', `/v3/short-urls?${query}`), elements);
    });
  }

  it('reads the visits paging as Shlink does: a page that is not a number is page 1', async () => {
    const visits = await rest('GET', '/v3/short-urls/here/visits?page=abc');
    assert.equal(visits.status, 200);
    assert.equal((visits.body.visits as { pagination: { currentPage: number } }).pagination.currentPage, 1);
    assertInvalid(await rest('GET', '/v3/short-urls/here/visits?itemsPerPage=abc'), ['itemsPerPage']);
    assertInvalid(await rest('GET', '/v3/visits/non-orphan?startDate=2025-13-01'), ['startDate']);
    assertInvalid(await rest('GET', '/v3/visits/orphan?type=elsewhere'), ['type']);
    assertInvalid(await rest('GET', '/v3/tags/stats?orderBy=colour-ASC'), ['orderBy']);
  });
});

describe('Shlink create and edit bodies that are not valid', () => {
  const future = new Date(Date.now() + 86_400_000).toISOString();
  const past = new Date(Date.now() - 86_400_000).toISOString();
  const cases: Array<[string, unknown, string[]]> = [
    ['no long URL', {}, ['longUrl']],
    ['a blank long URL', { longUrl: '  ' }, ['longUrl']],
    ['a long URL that is a number', { longUrl: 5 }, ['longUrl']],
    ['a long URL without a scheme', { longUrl: 'example.com' }, ['longUrl']],
    ['maxVisits as words', { longUrl: 'https://example.com/m1', maxVisits: 'abc' }, ['maxVisits']],
    ['maxVisits 0', { longUrl: 'https://example.com/m2', maxVisits: 0 }, ['maxVisits']],
    ['maxVisits 1.5', { longUrl: 'https://example.com/m3', maxVisits: 1.5 }, ['maxVisits']],
    ['validUntil not a date', { longUrl: 'https://example.com/u1', validUntil: 'soon' }, ['validUntil']],
    ['validUntil past', { longUrl: 'https://example.com/u2', validUntil: past }, ['validUntil']],
    ['validSince to come', { longUrl: 'https://example.com/s1', validSince: future }, ['validSince']],
    ['tags of numbers', { longUrl: 'https://example.com/t1', tags: [1, 2] }, ['tags']],
    ['a tag with a comma', { longUrl: 'https://example.com/t2', tags: ['a,b'] }, ['tags']],
    ['a title that is a number', { longUrl: 'https://example.com/t3', title: 5 }, ['title']],
    ['a slug with a ?', { longUrl: 'https://example.com/c1', customSlug: 'what?' }, ['customSlug']],
    ['findIfExists as words', { longUrl: 'https://example.com/f1', findIfExists: 'maybe' }, ['findIfExists']],
    ['crawlable as words', { longUrl: 'https://example.com/f2', crawlable: 'x' }, ['crawlable']],
    ['a domain that is a number', { longUrl: 'https://example.com/d1', domain: 5 }, ['domain']],
    [
      'a short code length of 2',
      { longUrl: 'https://example.com/l1', shortCodeLength: 2 },
      ['shortCodeLength'],
    ],
    ['a path prefix', { longUrl: 'https://example.com/p1', pathPrefix: 'pre' }, ['pathPrefix']],
    [
      'several at once',
      { maxVisits: -1, tags: 'x', validUntil: 'x' },
      ['longUrl', 'validUntil', 'maxVisits'],
    ],
    ['an array', [], ['longUrl']],
  ];
  for (const [what, body, elements] of cases) {
    it(`refuses ${what} with invalid-data naming ${elements.join(', ')}`, async () => {
      assertInvalid(await rest('POST', '/v3/short-urls', { body }), elements);
    });
  }

  it('refuses a body that is not JSON as a malformed body', async () => {
    assertProblem(
      await rest('POST', '/v3/short-urls', { raw: '{"longUrl":' }),
      400,
      'malformed-request-body',
    );
  });

  it('refuses wrong edits, and edits of a short URL there is not', async () => {
    assertInvalid(await rest('PATCH', '/v3/short-urls/here', { body: { maxVisits: 'not_a_number' } }), [
      'maxVisits',
    ]);
    assertInvalid(await rest('PATCH', '/v3/short-urls/here', { body: { longUrl: null } }), ['longUrl']);
    assertInvalid(await rest('PATCH', '/v3/short-urls/here', { raw: '{"maxVisits": 1e400}' }), ['maxVisits']);
    const missing = await rest('PATCH', '/v3/short-urls/nothing-here', { body: { title: 'x' } });
    assertProblem(missing, 404, 'short-url-not-found');
    assert.equal(missing.body.shortCode, 'nothing-here');
    const elsewhere = await rest('GET', '/v3/short-urls/here?domain=nowhere.example');
    assertProblem(elsewhere, 404, 'short-url-not-found');
    assert.equal(elsewhere.body.domain, 'nowhere.example');
  });

  it('refuses a tag rename without both names or to a name Snip does not take', async () => {
    assertInvalid(await rest('PUT', '/v3/tags', { body: {} }), ['oldName', 'newName']);
    assertInvalid(await rest('PUT', '/v3/tags', { body: { oldName: 'a' } }), ['newName']);
    assertInvalid(await rest('PUT', '/v3/tags', { body: { oldName: 'a', newName: 'b,c' } }), ['newName']);
  });
});

describe("Snip's refusals in Shlink's form", () => {
  it('asks for the key in X-Api-Key, any case, and not in the query', async () => {
    const keyless = await rest('GET', '/v3/short-urls', { key: null });
    assertProblem(keyless, 401, 'missing-authentication');
    assert.deepEqual(keyless.body.expectedHeaders, ['X-Api-Key']);
    assert.equal(keyless.body.code, '301');
    const upper = await send(t.app, {
      method: 'GET',
      url: '/rest/v3/short-urls',
      headers: { 'X-API-KEY': t.apiKey },
    });
    assert.equal(upper.status, 200);
    const inQuery = await rest('GET', `/v3/short-urls?apiKey=${t.apiKey}`, { key: null });
    assertProblem(inQuery, 401, 'missing-authentication');
  });

  it('refuses a key without the scope: a tag change as forbidden-tag-operation', async () => {
    const reader = await keyWithScopes(t.store, t.email, ['links:read']);
    const create = await rest('POST', '/v3/short-urls', {
      key: reader,
      body: { longUrl: 'https://example.com/r' },
    });
    assertProblem(create, 403, 'forbidden-operation');
    assert.equal(create.body.code, '315');
    const rename = await rest('PUT', '/v3/tags', { key: reader, body: { oldName: 'a', newName: 'b' } });
    assertProblem(rename, 403, 'forbidden-tag-operation');
    assertProblem(await rest('DELETE', '/v3/tags?tags[]=a', { key: reader }), 403, 'forbidden-tag-operation');
    assertProblem(await rest('GET', '/v3/visits', { key: reader }), 403, 'forbidden-operation');
  });

  it('answers a spent quota, a spent hour, and a target that cannot be fetched', async () => {
    await t.ops.savePlan('one-link', { apiAccess: true, urlQuota: 1, rateLimitPerHour: 2 });
    const { apiKey } = await t.ops.createAccount('small@example.com', 'one-link');
    const first = await rest('POST', '/v3/short-urls', {
      key: apiKey,
      body: { longUrl: 'https://example.com/q1' },
    });
    assert.equal(first.status, 200);
    const full = await rest('POST', '/v3/short-urls', {
      key: apiKey,
      body: { longUrl: 'https://example.com/q2' },
    });
    assertProblem(full, 403, 'link-quota-reached');
    assert.equal(full.body.code, '304');
    const spent = await rest('GET', '/v3/short-urls', { key: apiKey });
    assertProblem(spent, 429, 'too-many-requests');
    assert.ok(Number(spent.headers['retry-after']) > 0);
    inspector.outcome = () => ({ ok: false, code: '306', reason: 'The target did not answer.' });
    const dead = await rest('POST', '/v3/short-urls', { body: { longUrl: 'https://example.com/dead' } });
    inspector.outcome = (url) => ({ ok: true, title: 'A page', finalUrl: url.href, status: 200 });
    assertProblem(dead, 400, 'invalid-url');
    assert.equal(dead.body.code, '306');
  });

  it('answers other origins as Shlink does: any origin, a preflight without a key', async () => {
    const preflight = await send(t.app, {
      method: 'OPTIONS',
      url: '/rest/v3/short-urls',
      headers: { origin: 'https://app.example', 'access-control-request-headers': 'x-api-key,content-type' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], '*');
    assert.equal(preflight.headers['access-control-allow-headers'], 'x-api-key,content-type');
    assert.match(String(preflight.headers['access-control-allow-methods']), /PATCH/);
    const refused = await send(t.app, {
      method: 'GET',
      url: '/rest/v3/tags',
      headers: { origin: 'https://app.example' },
    });
    assertProblem(refused, 401, 'missing-authentication');
    assert.equal(refused.headers['access-control-allow-origin'], '*');
    const sameOrigin = await rest('GET', '/v3/tags');
    assert.equal(sameOrigin.status, 200);
    assert.equal(sameOrigin.headers['access-control-allow-origin'], undefined);
  });

  it('answers a route there is not with not-found', async () => {
    assertProblem(await rest('GET', '/v3/nothing'), 404, 'not-found');
    assertProblem(await rest('PUT', '/v3/short-urls'), 404, 'not-found');
  });
});
