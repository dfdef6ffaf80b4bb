import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { API_ERROR_CODES as ERROR_CODES } from '../../../src/core/errors.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

describe('GET /openapi.json', () => {
  let t: TestApp;
  // biome-ignore lint/suspicious/noExplicitAny: walking a parsed JSON document
  let document: Record<string, any>;
  before(async () => {
    t = await startTestApp();
    const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /application\/json/);
    document = response.json();
  });
  after(() => t.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    assert.deepEqual(result.errors ?? [], []);
    assert.equal(result.valid, true);
    assert.equal(validator.version, '3.1');
  });

  it('describes both encodings of POST /create', () => {
    const content = document.paths['/create'].post.requestBody.content;
    assert.deepEqual(Object.keys(content).sort(), [
      'application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ]);
    assert.ok(content['application/x-www-form-urlencoded'].schema.properties.apikey);
    assert.equal(content['application/json'].schema.properties.apikey, undefined);
    assert.equal(document.components.securitySchemes.ApiKeyHeader.name, 'X-API-Key');
  });

  it('describes every error code, the statuses and the headers', () => {
    const responses = document.paths['/create'].post.responses;
    assert.deepEqual(Object.keys(responses).sort(), [
      '201',
      '400',
      '401',
      '403',
      '409',
      '422',
      '429',
      '500',
      '503',
    ]);
    const text = JSON.stringify(document);
    for (const code of ERROR_CODES) assert.ok(text.includes(`\`${code}\``), `code ${code} documented`);
    assert.ok(responses['201'].headers.Location);
    assert.ok(responses['201'].headers['RateLimit-Remaining']);
    assert.ok(responses['409'].headers.Location);
    assert.ok(responses['429'].headers['Retry-After']);
    assert.ok(responses['503'].headers['Retry-After']);
  });
});
