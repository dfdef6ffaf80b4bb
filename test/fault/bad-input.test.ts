import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { PageClient } from '../fixtures/page-client.ts';
import { createJson, startTestApp, type TestApp } from '../helper.ts';

/**
 * A battery of malformed, hostile and oversized requests against /create, /demo/create, the
 * redirect, QR codes and every form (docs/api.md §10): each gets its refusal, none a 500.
 */

interface Shape {
  name: string;
  request: InjectOptions;
  /** The HTTP status wanted. */
  status: number;
  /** The envelope's `error`, or the page's data-error, when the answer carries one. */
  code?: string;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };
const BOUNDARY = 'bad-input-boundary';
const MULTIPART_TYPE = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
const part = (name: string, value: string, extra = '') =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${extra}\r\n\r\n${value}\r\n`;
const multipart = (...parts: string[]) => `${parts.join('')}--${BOUNDARY}--\r\n`;

/** Requests to POST /create (or /demo/create) and the code each must get. */
function createShapes(path: string, key: string): Shape[] {
  const post = (
    name: string,
    headers: Record<string, string>,
    payload: string,
    code: string,
    status = 400,
  ) => ({
    name: `${path}: ${name}`,
    request: { method: 'POST' as const, url: path, headers: { ...headers, 'x-api-key': key }, payload },
    status,
    code,
  });
  const json = (name: string, body: unknown, code: string, status = 400) =>
    post(name, JSON_TYPE, typeof body === 'string' ? body : JSON.stringify(body), code, status);
  const url = 'https://example.com/page';
  return [
    json('malformed JSON', '{"url": ', '300'),
    json('a JSON array', [url], '300'),
    json('a JSON string', '"hello"', '300'),
    json('JSON null', 'null', '300'),
    json('url as a number', { url: 42 }, '300'),
    json('url as an object', { url: { href: url } }, '300'),
    json('url as an array', { url: [url] }, '300'),
    json('group as a number', { url, group: 7 }, '300'),
    json('group as an object', { url, group: { id: 1 } }, '300'),
    json('a __proto__ key', `{"url":"${url}","__proto__":{"polluted":true}}`, '300'),
    json('a constructor.prototype key', `{"url":"${url}","constructor":{"prototype":{"x":1}}}`, '300'),
    json(
      'JSON nested 5,000 levels',
      `{"url":"${url}","group":${'['.repeat(5000)}${']'.repeat(5000)}}`,
      '300',
    ),
    json('65 KiB of JSON', { url, pad: 'x'.repeat(65 * 1024) }, '300'),
    json('a javascript: url', { url: 'javascript:alert(1)' }, '300'),
    json('a data: url', { url: 'data:text/html,<b>hi</b>' }, '300'),
    json('credentials in the url', { url: 'https://user:pass@example.com/' }, '300'),
    json('a url of 2,049 characters', { url: `https://example.com/${'a'.repeat(2029)}` }, '300'),
    json('a control character in the url', { url: 'https://exa\u0000mple.com/' }, '300'),
    json('an empty url', { url: '' }, '302'),
    json('a url of spaces', { url: '   ' }, '302'),
    post('text/plain', { 'content-type': 'text/plain' }, url, '300'),
    post('application/xml', { 'content-type': 'application/xml' }, `<url>${url}</url>`, '300'),
    post('an empty JSON body', JSON_TYPE, '', '300'),
    post(
      'a repeated form field',
      FORM_TYPE,
      `url=${encodeURIComponent(url)}&url=${encodeURIComponent(url)}`,
      '300',
    ),
    post('65 KiB of form', FORM_TYPE, `url=${encodeURIComponent(url)}&pad=${'x'.repeat(65 * 1024)}`, '300'),
    post('a file in place of url', MULTIPART_TYPE, multipart(part('url', url, '; filename="u.txt"')), '300'),
    post(
      'four multipart files',
      MULTIPART_TYPE,
      multipart(...[0, 1, 2, 3].map((i) => part(`f${i}`, 'x', `; filename="${i}"`))),
      '300',
    ),
    post(
      'thirty multipart parts',
      MULTIPART_TYPE,
      multipart(...Array.from({ length: 30 }, (_, i) => part(`p${i}`, 'x'))),
      '300',
    ),
    post(
      'a multipart __proto__ field',
      MULTIPART_TYPE,
      multipart(part('__proto__', 'x'), part('url', url)),
      '300',
    ),
    post('a truncated multipart body', MULTIPART_TYPE, part('url', url).slice(0, -4), '300'),
  ];
}

describe('bad input of every shape', () => {
  let t: TestApp;
  let code = '';
  let signedIn: PageClient;

  before(async () => {
    t = await startTestApp({ env: { DEMO_RATE_LIMIT: '1000' } });
    code = String(
      (await createJson(t.app, t.apiKey, { url: 'https://example.com/battery' })).body.short_code,
    );
    await t.ops.createAccount('battery@example.com', 'tester', 'correct horse battery');
    signedIn = new PageClient(t.app);
    await signIn(signedIn);
  });
  after(() => t.close());

  async function signIn(client: PageClient) {
    await client.signIn('battery@example.com');
  }

  /** Asserts one shape; returns a line for the report when it failed. */
  async function check(shape: Shape, client?: PageClient): Promise<string | undefined> {
    const request = client
      ? {
          ...shape.request,
          headers: { ...shape.request.headers, cookie: client.cookieHeader },
        }
      : shape.request;
    const answer = await t.app.inject(request);
    let got = '';
    if (shape.code !== undefined) {
      const text = answer.body;
      got =
        /data-error="([^"]*)"/.exec(text)?.[1] ??
        ((): string => {
          try {
            return String(JSON.parse(text).error ?? JSON.parse(text).code ?? '');
          } catch {
            return '';
          }
        })();
    }
    const ok = answer.statusCode === shape.status && (shape.code === undefined || got === shape.code);
    return ok
      ? undefined
      : `${shape.name}: HTTP ${answer.statusCode} ${got} (wanted ${shape.status} ${shape.code ?? ''})`;
  }

  it('refuses malformed /create and /demo/create requests with their code, never a 500', async () => {
    const shapes = [...createShapes('/create', t.apiKey), ...createShapes('/demo/create', 'demo')];
    const failures = [];
    for (const shape of shapes) {
      const failure = await check(shape);
      if (failure) failures.push(failure);
    }
    assert.deepEqual(failures, []);
    assert.ok(shapes.length >= 60, `${shapes.length} shapes`);
  });

  it('answers odd redirect and QR code addresses with 404, or the clamped image', async () => {
    const get = (url: string, status: number, method: 'GET' | 'HEAD' | 'POST' = 'GET'): Shape => ({
      name: `${method} ${url.slice(0, 60)}`,
      request: { method, url },
      status,
    });
    const shapes = [
      get('/%00', 404),
      get('/%2e%2e%2f', 404),
      get('/..%2f..%2fetc%2fpasswd', 404),
      get('/%3Cscript%3E', 404),
      get('/Abcdef%20', 404),
      get('/a', 404),
      get(`/${'A'.repeat(2000)}`, 414),
      get('/Zzzzzzz?%%%', 404),
      get('/Zzzzzzz', 404, 'HEAD'),
      get('/Zzzzzzz', 404, 'POST'),
      get(`/${code}/extra`, 404),
      get('/%E0%A4%A', 400),
      get('/qrcode/x.png', 404),
      get('/qrcode/Zzzzzzz.png?size=-1', 404),
      get('/qrcode/..%2f..%2fetc.png', 404),
      get(`/qrcode/${code}.png?size=%5B%5D`, 200),
      get(`/qrcode/${code}.png?size=1e3`, 200),
      get(`/qrcode/${code}.png?size=${'9'.repeat(40)}`, 200),
      get(`/qrcode/${code}.png?size=64&size=nonsense`, 200),
      get(`/qrcode/${code}.gif`, 404),
    ];
    const failures = [];
    for (const shape of shapes) {
      const failure = await check(shape);
      if (failure) failures.push(failure);
    }
    assert.deepEqual(failures, []);
  });

  it('answers hostile form posts with their page refusal, never a 500', async () => {
    const form = (url: string, fields: string, status: number, code?: string): Shape => ({
      name: `POST ${url} ${fields.slice(0, 50)}`,
      request: { method: 'POST', url, headers: FORM_TYPE, payload: fields },
      status,
      code,
    });
    const token = () => `_csrf=${encodeURIComponent(signedIn.csrf)}`;
    const signedOut = [
      { ...form('/login', '', 403, 'csrf'), request: { method: 'POST' as const, url: '/login' } },
      {
        ...form('/login', '{"email":"a"}', 403, 'csrf'),
        request: { method: 'POST' as const, url: '/login', headers: JSON_TYPE, payload: '{"email":"a"}' },
      },
      form('/login', '__proto__=x&email=a&password=b', 403, 'csrf'),
      form('/signup', `email=a@b.c&password=x&pad=${'x'.repeat(70 * 1024)}`, 413),
      form('/logout', '_csrf=', 303),
      form('/login/code', 'code=123456', 403, 'csrf'),
      form('/email/change/x', '', 403, 'csrf'),
    ];
    const signedInShapes = [
      form(signedIn.at('/links'), `${token()}&url=javascript:alert(1)`, 400, '300'),
      form(signedIn.at('/links'), `${token()}&url=${'a'.repeat(3000)}`, 400, '300'),
      // A NUL anywhere is refused at the edge, before any service or store (docs/adr/025).
      form(signedIn.at('/links'), `${token()}&url=https://example.com/x&group=%00`, 400, '400'),
      form(signedIn.at('/links'), `${token()}&url=&url=`, 400, '302'),
      form(signedIn.at('/links'), 'url=https://example.com/', 403, 'csrf'),
      form(signedIn.at('/links/%00/delete'), token(), 400, '400'),
      form(signedIn.at(`/links/${'x'.repeat(500)}/delete`), token(), 414),
      form(signedIn.at('/groups'), `${token()}&name=${'n'.repeat(101)}`, 400, 'group-name-invalid'),
      form(signedIn.at('/groups'), `${token()}&name=Fine&api_id=NOT%20A%20SLUG`, 400, 'group-api-id-invalid'),
      form(signedIn.at('/groups'), `${token()}&name=&name=`, 400, 'group-name-invalid'),
      form(signedIn.at('/groups/abc'), `${token()}&name=x`, 404, 'not-found'),
      form(signedIn.at(`/groups/${'9'.repeat(30)}`), `${token()}&name=x`, 404, 'not-found'),
      form(signedIn.at('/groups/999999/delete'), token(), 404, 'not-found'),
      form(signedIn.at('/keys/main'), token(), 400, 'confirm-required'),
      form(signedIn.at('/keys/main'), `${token()}&understand=maybe`, 400, 'confirm-required'),
      form('/account/password', `${token()}&current=wrong&password=newpassword1`, 403, 'wrong-password'),
      // The account's own forms of docs/api.md §22: a forged setup, an odd session, no mail, no password.
      form('/account/2fa', `${token()}&setup=v1.forged.x.y&code=123456`, 303),
      form('/account/2fa', `${token()}&setup=&setup=&code=${'9'.repeat(5000)}`, 303),
      form('/account/sessions/end', `${token()}&session=%00`, 400, '400'),
      form('/account/sessions/end', `${token()}&session=${'s'.repeat(3000)}`, 303),
      form('/account/email', `${token()}&email=not-an-email&password=x`, 409, 'mail-off'),
      form('/account/delete', `${token()}&confirmation=`, 403, 'wrong-password'),
      form(
        '/account/password',
        `${token()}&current=correct%20horse%20battery&password=${'p'.repeat(10_000)}`,
        400,
        'password-invalid',
      ),
      form('/account/password', '_csrf=forged&current=x&password=y', 403, 'csrf'),
    ];
    const pages: Shape[] = [
      {
        name: 'dashboard with nonsense filters',
        request: { method: 'GET', url: signedIn.at(`?page=-1&group=abc&q=${'q'.repeat(5000)}`) },
        status: 200,
      },
      {
        name: 'a link page with a malformed escape',
        request: { method: 'GET', url: signedIn.at('/links/%ZZ') },
        status: 400,
      },
      {
        name: 'a link page of a foreign code',
        request: { method: 'GET', url: signedIn.at('/links/Zzzzzzz') },
        status: 404,
      },
      {
        name: 'account with a hostile notice',
        request: { method: 'GET', url: '/account?done=%3Cscript%3E' },
        status: 200,
      },
    ];
    const failures = [];
    for (const shape of signedOut) {
      const failure = await check(shape);
      if (failure) failures.push(failure);
    }
    for (const shape of [...signedInShapes, ...pages]) {
      const failure = await check(shape, signedIn);
      if (failure) failures.push(failure);
    }
    assert.deepEqual(failures, []);
  });
});
