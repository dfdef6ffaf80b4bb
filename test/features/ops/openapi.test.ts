import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { CREATE_ERROR_CODES as ERROR_CODES } from '../../../src/core/errors.ts';
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

  it('names, summarizes and secures every operation, and documents a 4xx answer of each', () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, Record<string, unknown>>).map(([method, operation]) => ({
        where: `${method.toUpperCase()} ${path}`,
        operation,
      })),
    );
    assert.ok(operations.length > 0);
    const ids = new Set<string>();
    for (const { where, operation } of operations) {
      assert.equal(typeof operation.operationId, 'string', `${where} has an operationId`);
      assert.ok(!ids.has(operation.operationId as string), `${where} has its own operationId`);
      ids.add(operation.operationId as string);
      assert.ok(typeof operation.summary === 'string' && operation.summary !== '', `${where} has a summary`);
      assert.ok(Array.isArray(operation.security), `${where} says its security ([] when public)`);
      const statuses = Object.keys(operation.responses as object);
      assert.ok(
        statuses.some((status) => status.startsWith('4')),
        `${where} documents a 4xx answer`,
      );
    }
  });

  it('says every public operation is public, and the license', () => {
    for (const [path, method] of [
      ['/healthz', 'get'],
      ['/readyz', 'get'],
      ['/demo/log', 'get'],
      ['/demo/log/stream', 'get'],
      ['/qrcode/{file}', 'get'],
    ] as const) {
      assert.deepEqual(document.paths[path][method].security, [], `${method} ${path}`);
    }
    assert.deepEqual(document.info.license, { name: 'MIT', identifier: 'MIT' });
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
