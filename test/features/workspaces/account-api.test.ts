import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertProblem, callApi } from '../../fixtures/api-client.ts';
import { startTestApp } from '../../helper.ts';

/** The account through /api/v1 (docs/api.md §7.3). */

describe('the account on /api/v1', () => {
  it('tells its plan, quota, links used and the window of this hour', async () => {
    const t = await startTestApp({ plan: { urlQuota: 50, rateLimitPerHour: 100 } });
    try {
      await callApi(t.app, 'POST', '/links', { key: t.apiKey, body: { url: 'https://example.com/acc' } });
      const answer = await callApi(t.app, 'GET', '/account', { key: t.apiKey });
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, {
        email: 'owner@example.com',
        plan: 'tester',
        api_access: true,
        url_quota: 50,
        links_used: 1,
        rate_limit_per_hour: 100,
        requests_this_hour: 2,
      });
      assert.equal(answer.headers['ratelimit-remaining'], '98');
    } finally {
      await t.close();
    }
  });

  it('refuses a key whose plan lost API access with 303', async () => {
    const t = await startTestApp();
    try {
      await t.ops.savePlan('tester', { apiAccess: false, urlQuota: 10, rateLimitPerHour: 10 });
      assertProblem(await callApi(t.app, 'GET', '/account', { key: t.apiKey }), 401, '303');
    } finally {
      await t.close();
    }
  });
});
