import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { callApi } from '../../fixtures/api-client.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/**
 * The Host a request names on a listening server (the hot path below the router answers there):
 * each domain's own code, and requests without a Host, with two, or in absolute form resolving
 * deterministically (docs/api.md §12).
 */

const ACME = 'go.acme.example';
const records = new Map<string, string>();
let t: TestApp;
let port: number;

/** Sends the request bytes as they are; the whole answer as text. */
function rawText(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => {
      data += chunk;
    });
    socket.on('error', reject);
    socket.on('end', () => resolve(data));
    socket.end(request.replaceAll('\n', '\r\n'));
  });
}

/** The status line and Location of the answer to the request bytes. */
async function raw(request: string): Promise<{ status: number; location: string | undefined }> {
  const data = await rawText(request);
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(data)?.[1]);
  const location = /\r\nlocation: ([^\r]*)/i.exec(data)?.[1];
  return { status, location };
}

before(async () => {
  t = await startTestApp({
    resolveTxt: async (name) => {
      const value = records.get(name);
      if (value === undefined) throw Object.assign(new Error('no record'), { code: 'ENODATA' });
      return [[value]];
    },
  });
  const api = (method: string, path: string, body?: unknown) =>
    callApi(t.app, method, path, { key: t.apiKey, ...(body === undefined ? {} : { body }) });
  const added = await api('POST', '/domains', { host: ACME });
  const { record, value } = added.body.verification as { record: string; value: string };
  records.set(record, value);
  assert.equal((await api('POST', `/domains/${ACME}/verify`)).body.verified, true);
  await api('POST', '/links', { url: 'https://example.com/home', slug: 'same1' });
  await api('POST', '/links', { url: 'https://example.com/acme', slug: 'same1', domain: ACME });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
after(async () => {
  await t.close();
});

describe('the Host header on a listening server', () => {
  it('answers each domain from its own code space, twice (cold, then from the cache)', async () => {
    for (let round = 0; round < 2; round++) {
      const home = await raw('GET /same1 HTTP/1.1\nHost: sn.ip\nConnection: close\n\n');
      assert.deepEqual(home, { status: 302, location: 'https://example.com/home' });
      const acme = await raw(`GET /same1 HTTP/1.1\nHost: ${ACME}:8080\nConnection: close\n\n`);
      assert.deepEqual(acme, { status: 302, location: 'https://example.com/acme' });
    }
  });

  it('answers a code on an unknown host with the 404 page or JSON, as an unknown code is', async () => {
    const page = await rawText('GET /same1 HTTP/1.1\nHost: unknown.example\nConnection: close\n\n');
    assert.match(page, /^HTTP\/1\.1 404 /);
    assert.match(page, /\r\ncontent-type: text\/html; charset=utf-8\r\n/i);
    assert.match(page, /\r\ncontent-security-policy: default-src 'self'/i);
    assert.match(page, /\r\ncache-control: no-store\r\n/i);
    assert.match(page, /<\/html>/);
    const json = await rawText(
      'GET /same1 HTTP/1.1\nHost: unknown.example\nAccept: application/json\nConnection: close\n\n',
    );
    assert.match(json, /^HTTP\/1\.1 404 /);
    assert.match(json, /\r\n\r\n\{"error":"404","message":"[^"]+"\}$/);
    const head = await rawText('HEAD /same1 HTTP/1.1\nHost: unknown.example\nConnection: close\n\n');
    assert.match(head, /^HTTP\/1\.1 404 /);
    assert.ok(head.endsWith('\r\n\r\n'), 'no body to a HEAD');
  });

  it('answers an unknown host 404, whatever the forwarded headers say', async () => {
    const request = `GET /same1 HTTP/1.1\nHost: unknown.example\nX-Forwarded-Host: ${ACME}\nForwarded: host=${ACME}\nConnection: close\n\n`;
    assert.equal((await raw(request)).status, 404);
  });

  it('takes a request without a Host (HTTP/1.0) as the server reached directly: the default domain', async () => {
    const answer = await raw('GET /same1 HTTP/1.0\n\n');
    assert.deepEqual(answer, { status: 302, location: 'https://example.com/home' });
  });

  it('takes the first of two Host headers, every time', async () => {
    const twice = `GET /same1 HTTP/1.1\nHost: ${ACME}\nHost: sn.ip\nConnection: close\n\n`;
    const answers = [await raw(twice), await raw(twice)];
    assert.ok(answers.every((answer) => answer.status === answers[0]?.status));
    assert.ok(answers.every((answer) => answer.location === answers[0]?.location));
    assert.equal(answers[0]?.location, 'https://example.com/acme');
  });

  it('takes the host of an absolute-form request line over the Host header', async () => {
    const absolute = `GET http://${ACME}/same1 HTTP/1.1\nHost: sn.ip\nConnection: close\n\n`;
    assert.deepEqual(await raw(absolute), { status: 302, location: 'https://example.com/acme' });
    const unknown = 'GET http://unknown.example/same1 HTTP/1.1\nHost: sn.ip\nConnection: close\n\n';
    assert.equal((await raw(unknown)).status, 404);
  });
});
