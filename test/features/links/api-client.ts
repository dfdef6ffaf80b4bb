import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { issueApiKey } from '../../../src/core/api-key.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import type { Scope } from '../../../src/core/scopes.ts';
import { type Answer, send } from '../../helper.ts';

/** Requests to /api/v1 as a script would send them, and the checks every answer must pass. */

export interface ApiRequest {
  key?: string;
  /** Send the key as Authorization: Bearer instead of X-API-Key. */
  bearer?: boolean;
  /** JSON-encoded unless a string (sent as is). */
  body?: unknown;
  headers?: Record<string, string>;
}

export function callApi(
  app: FastifyInstance,
  method: string,
  path: string,
  request: ApiRequest = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.key !== undefined) {
    if (request.bearer) headers.authorization = `Bearer ${request.key}`;
    else headers['x-api-key'] = request.key;
  }
  let payload: string | undefined;
  if (request.body !== undefined) {
    payload = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    headers['content-type'] ??= 'application/json';
  }
  return send(app, {
    method: method as 'GET',
    url: `/api/v1${path}`,
    headers,
    ...(payload === undefined ? {} : { payload }),
  });
}

/** A refusal: the status, the numbered code, a problem document. */
export function assertProblem(answer: Answer, status: number, code: string): void {
  assert.equal(
    answer.status,
    status,
    `expected ${status}/${code}, got ${answer.status} ${JSON.stringify(answer.body)}`,
  );
  assert.match(String(answer.headers['content-type']), /^application\/problem\+json/);
  assert.equal(answer.body.code, code);
  assert.equal(answer.body.status, status);
  assert.equal(typeof answer.body.title, 'string');
  assert.equal(typeof answer.body.detail, 'string');
}

/** A further key of the account with these scopes; the key itself. */
export async function keyWithScopes(
  store: Store,
  email: string,
  scopes: readonly Scope[],
  name = 'test',
): Promise<string> {
  const account = await store.findAccountByEmail(email);
  assert.ok(account);
  const issued = issueApiKey();
  const result = await store.addKey(account.id, { name, scopes, prefix: issued.prefix, hash: issued.hash });
  assert.equal(result.kind, 'created');
  return issued.key;
}
