import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { PageClient } from '../fixtures/page-client.ts';
import { createJson, startTestApp } from '../helper.ts';

/** What every HTTP surface does alike (docs/api.md §10): methods, headers, logs and slow clients. */

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

describe('wrong methods on API routes', () => {
  it('answers 405 with Allow on /create and /demo/create, in the envelope, before reading the body', async () => {
    const t = await startTestApp();
    try {
      for (const [method, url] of [
        ['GET', '/create'],
        ['PUT', '/create'],
        ['PATCH', '/create'],
        ['DELETE', '/demo/create'],
        ['GET', '/demo/create'],
      ] as const) {
        const answer = await t.app.inject({
          method,
          url,
          headers: { 'content-type': 'text/plain' },
          ...(method === 'GET' ? {} : { payload: 'not a body /create reads' }),
        });
        assert.equal(answer.statusCode, 405, `${method} ${url}`);
        assert.equal(answer.headers.allow, 'POST');
        assert.equal(answer.json().error, '405');
        assert.equal(answer.json().success, 'false');
      }
    } finally {
      await t.close();
    }
  });

  it('answers 405 with Allow and a problem on the other JSON routes', async () => {
    const t = await startTestApp();
    try {
      for (const [method, url] of [
        ['POST', '/demo/log'],
        ['DELETE', '/demo/log/stream'],
        ['POST', '/healthz'],
        ['PUT', '/readyz'],
        ['POST', '/metrics'],
        ['DELETE', '/openapi.json'],
      ] as const) {
        const answer = await t.app.inject({ method, url });
        assert.equal(answer.statusCode, 405, `${method} ${url}`);
        assert.equal(answer.headers.allow, 'GET, HEAD');
        assert.match(String(answer.headers['content-type']), /^application\/problem\+json/);
        assert.equal(answer.json().status, 405);
        assert.equal(answer.json().code, '405');
      }
    } finally {
      await t.close();
    }
  });
});

describe('unreadable multipart bodies', () => {
  it("are a 400 in each surface's own form, never a 500, and a whole one is still read", async () => {
    const t = await startTestApp();
    try {
      const cut = '--xx\r\nContent-Disposition: form-data; name="url"\r\n\r\nhttps://example.com/a';
      for (const url of ['/create', '/api/v1/links', '/login']) {
        for (const [type, payload] of [
          ['multipart/form-data; boundary=xx', cut],
          ['multipart/form-data', 'no boundary at all'],
        ] as const) {
          const answer = await t.app.inject({
            method: 'POST',
            url,
            headers: { 'content-type': type, 'x-api-key': t.apiKey },
            payload,
          });
          assert.equal(answer.statusCode, 400, `${url} ${type}`);
        }
      }
      const whole = await t.app.inject({
        method: 'POST',
        url: '/create',
        headers: { 'content-type': 'multipart/form-data; boundary=xx' },
        payload: `--xx\r\nContent-Disposition: form-data; name="apikey"\r\n\r\n${t.apiKey}\r\n${cut}\r\n--xx--\r\n`,
      });
      assert.equal(whole.statusCode, 201);
      assert.equal(whole.json().error, '');
    } finally {
      await t.close();
    }
  });
});

describe('HSTS', () => {
  it('is sent on every answer when BASE_URL is https, and never over plain http', async () => {
    const secure = await startTestApp();
    const plain = await startTestApp({ env: { BASE_URL: 'http://localhost:8080' } });
    try {
      for (const url of ['/healthz', '/', '/login', '/Zzzzzzz']) {
        const answer = await secure.app.inject({ method: 'GET', url });
        assert.equal(answer.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains', url);
        const insecure = await plain.app.inject({ method: 'GET', url });
        assert.equal(insecure.headers['strict-transport-security'], undefined, url);
      }
    } finally {
      await secure.close();
      await plain.close();
    }
  });
});

describe('page compression', () => {
  it('gzips a page for a client that accepts it, and sends it plain otherwise', async () => {
    const t = await startTestApp();
    try {
      const plain = await t.app.inject({ method: 'GET', url: '/login' });
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.equal(plain.headers.vary, 'accept-encoding');
      const zipped = await t.app.inject({
        method: 'GET',
        url: '/login',
        headers: { 'accept-encoding': 'br, gzip;q=0.9' },
      });
      assert.equal(zipped.statusCode, 200);
      assert.equal(zipped.headers['content-encoding'], 'gzip');
      // The same page (its form's token is new each time): the same text once the tokens are set aside.
      const withoutTokens = (page: string) => page.replace(/value="[^"]{20,}"/g, 'value=""');
      assert.equal(withoutTokens(gunzipSync(zipped.rawPayload).toString('utf8')), withoutTokens(plain.body));
      assert.ok(zipped.rawPayload.length < plain.rawPayload.length);
      // The page as the theme left it (web/theme.ts writes the chosen one into <html>).
      const themed = await t.app.inject({
        method: 'GET',
        url: '/login',
        headers: { 'accept-encoding': 'gzip', cookie: 'snip_theme=dark' },
      });
      assert.match(gunzipSync(themed.rawPayload).toString('utf8'), /<html lang="en" data-theme="dark">/);
      // A status page keeps its status, and HEAD its headers alone.
      const missing = await t.app.inject({
        method: 'GET',
        url: '/Zzzzzzz',
        headers: { 'accept-encoding': 'gzip' },
      });
      assert.equal(missing.statusCode, 404);
      const head = await t.app.inject({
        method: 'HEAD',
        url: '/login',
        headers: { 'accept-encoding': 'gzip' },
      });
      assert.equal(head.statusCode, 200);
      assert.equal(head.rawPayload.length, 0);
    } finally {
      await t.close();
    }
  });
});

/** A pino destination that keeps every line, parsed. */
function logLines() {
  const lines: Array<Record<string, unknown>> = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        raw.push(line);
        lines.push(JSON.parse(line));
      }
      done();
    },
  });
  return { lines, raw, stream };
}

describe('the access log', () => {
  it('writes one line per API and page request, and never a key, cookie, password or query string', async () => {
    const log = logLines();
    const t = await startTestApp({ logger: { level: 'info', stream: log.stream } });
    try {
      const password = 'a secret password 123';
      await t.ops.createAccount('logged@example.com', 'tester', password);
      const created = await createJson(t.app, t.apiKey, { url: 'https://example.com/logged' });
      await t.app.inject({ method: 'GET', url: '/healthz?token=query-secret-1' });
      const client = new PageClient(t.app);
      await client.signIn('logged@example.com', password);
      const session = client.cookies.get('snip_session') ?? '';
      assert.ok(session.length > 0);
      const code = String(created.body.short_code);
      await t.app.inject({
        method: 'GET',
        url: `/${code}?utm=query-secret-2`,
        headers: { 'user-agent': BROWSER },
      });

      const requests = log.lines.filter((line) => line.msg === 'request');
      const routes = requests.map((line) => `${line.method} ${line.route} ${line.status}`);
      for (const expected of [
        'POST /create 201',
        'GET /healthz 200',
        'POST /login 303',
        'GET /dashboard 303',
        'GET /w/:workspace 200',
      ]) {
        assert.equal(routes.filter((route) => route === expected).length, 1, `${expected} in ${routes}`);
      }
      for (const line of requests) {
        assert.ok(line.reqId, 'request id');
        assert.equal(typeof line.ms, 'number');
        assert.equal(line.client, '127.0.0.0/24');
      }
      // The redirect is logged only at debug.
      assert.equal(routes.filter((route) => route.startsWith('GET /:code')).length, 0);
      const everything = log.raw.join('\n');
      for (const secret of [t.apiKey, session, password, 'query-secret-1', 'query-secret-2', 'utm=']) {
        assert.equal(everything.includes(secret), false, `the log holds ${secret.slice(0, 12)}…`);
      }
    } finally {
      await t.close();
    }
  });
});

/** Resolves when the socket closes, with what the server sent before closing. */
function closed(socket: Socket): Promise<string> {
  let received = '';
  socket.on('data', (chunk) => {
    received += String(chunk);
  });
  return new Promise((resolve) => socket.once('close', () => resolve(received)));
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

describe('slow and numerous clients', () => {
  it('sets the deadlines on the server Snip makes itself', async () => {
    const t = await startTestApp({ env: { MAX_CONNECTIONS: '123' } });
    try {
      await t.app.ready();
      const server = t.app.server;
      assert.equal(server.headersTimeout, 10_000);
      assert.equal(server.requestTimeout, 30_000);
      assert.equal(server.keepAliveTimeout, 5_000);
      assert.equal(server.maxConnections, 123);
    } finally {
      await t.close();
    }
  });

  it('closes a connection whose headers never finish, and refuses sockets past MAX_CONNECTIONS', {
    timeout: 30_000,
  }, async () => {
    const t = await startTestApp({ env: { MAX_CONNECTIONS: '2' } });
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as { port: number };
      const slow = await open(port);
      const slowClosed = closed(slow);
      slow.write('GET /healthz HTTP/1.1\r\nHost: sn.ip\r\nX-Slow: ');
      const second = await open(port);
      const third = await open(port);
      // The third socket is over the cap: the server closes it without an answer.
      assert.equal(await closed(third), '');
      // The slow one is answered 408 and closed once its headers are late (10 s), not after minutes.
      assert.match(await slowClosed, /^HTTP\/1\.1 408/);
      second.destroy();
    } finally {
      await t.close();
    }
  });
});

describe('client addresses behind proxies (TRUST_PROXY)', () => {
  async function ipSeen(env: Record<string, string>, forwardedFor: string): Promise<string> {
    const t = await startTestApp({ env });
    try {
      t.app.get('/which-ip', { schema: { hide: true } }, async (request) => ({ ip: request.ip }));
      const answer = await t.app.inject({
        method: 'GET',
        url: '/which-ip',
        headers: { 'x-forwarded-for': forwardedFor },
      });
      return (answer.json() as { ip: string }).ip;
    } finally {
      await t.close();
    }
  }

  it('believes as many X-Forwarded-For entries as there are proxies, from the right', async () => {
    assert.equal(await ipSeen({}, '192.0.2.9'), '127.0.0.1', 'no proxy trusted: the socket');
    assert.equal(await ipSeen({ TRUST_PROXY: '1' }, '203.0.113.5, 192.0.2.9'), '192.0.2.9');
    assert.equal(await ipSeen({ TRUST_PROXY: '2' }, '203.0.113.5, 192.0.2.9'), '203.0.113.5');
  });
});
