import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { MemoryDemoLog } from '../../../src/adapters/memory/demo-log.ts';
import { clearOfWindowEnd } from '../../fixtures/clear-of-window.ts';
import {
  createForm,
  createJson,
  createMultipart,
  FakeInspector,
  send,
  startTestApp,
  type TestApp,
} from '../../helper.ts';

/** POST /demo/create, its log and its live stream (docs/api.md §3). */

async function storeFingerprint(t: TestApp): Promise<string> {
  const path = t.config.databaseUrl.slice('sqlite:'.length);
  const hash = createHash('sha256');
  for (const file of [path, `${path}-wal`]) hash.update(await readFile(file).catch(() => Buffer.alloc(0)));
  return hash.digest('hex');
}

describe('POST /demo/create', () => {
  let t: TestApp;
  let inspector: FakeInspector;
  before(async () => {
    inspector = new FakeInspector();
    t = await startTestApp({ inspector, env: { DEMO_RATE_LIMIT: '1000' } });
  });
  after(() => t.close());
  beforeEach(() => {
    inspector.outcome = (url) => ({ ok: true, title: 'Demo target', finalUrl: url.href, status: 200 });
  });

  it('answers a simulated short link in each encoding, with the same envelope as /create', async () => {
    for (const answer of [
      await createJson(t.app, 'demo', { url: 'https://example.com/demo-json' }, '/demo/create'),
      await createForm(t.app, { apikey: 'demo', url: 'https://example.com/demo-form' }, '/demo/create'),
      await createMultipart(t.app, { apikey: 'demo', url: 'https://example.com/demo-multi' }, '/demo/create'),
    ]) {
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      assert.equal(answer.body.success, 'true');
      assert.equal(answer.body.error, '');
      assert.equal(answer.body.clicks, 0);
      assert.equal(answer.body.title, 'Demo target');
      assert.match(String(answer.body.short_code), /^[0-9A-Za-z]{7}$/);
      assert.equal(answer.headers.location, answer.body.short_url);
      assert.ok(answer.headers['ratelimit-limit']);
      // The code resolves nowhere.
      assert.equal(
        (await t.app.inject({ method: 'GET', url: `/${answer.body.short_code}` })).statusCode,
        404,
      );
    }
  });

  it('answers the same URL twice without 305: nothing is kept', async () => {
    for (let i = 0; i < 2; i++) {
      assert.equal(
        (await createJson(t.app, 'demo', { url: 'https://example.com/again' }, '/demo/create')).status,
        201,
      );
    }
  });

  it('leaves the store byte-for-byte unchanged and consumes no quota', async () => {
    const before = await storeFingerprint(t);
    for (let i = 0; i < 20; i++) {
      await createJson(
        t.app,
        'demo',
        { url: `https://example.com/untouched-${i}`, group: 'demo' },
        '/demo/create',
      );
    }
    await createJson(t.app, t.apiKey, { url: 'https://example.com/real-key' }, '/demo/create');
    await createJson(t.app, 'demo', { url: 'not a url' }, '/demo/create');
    assert.equal(await storeFingerprint(t), before);
  });

  const errors: Array<[string, () => Promise<{ status: number; body: Record<string, unknown> }>, number]> = [
    [
      '300 for a malformed body',
      () =>
        send(t.app, {
          method: 'POST',
          url: '/demo/create',
          headers: { 'content-type': 'application/json' },
          payload: '{',
        }),
      400,
    ],
    [
      '301 without a key',
      () => createJson(t.app, undefined, { url: 'https://example.com' }, '/demo/create'),
      401,
    ],
    [
      '303 for a real account key',
      () => createJson(t.app, t.apiKey, { url: 'https://example.com' }, '/demo/create'),
      401,
    ],
    ['302 without url', () => createJson(t.app, 'demo', {}, '/demo/create'), 400],
    ['300 for a relative url', () => createJson(t.app, 'demo', { url: '/relative' }, '/demo/create'), 400],
    [
      '312 for an unknown group',
      () => createJson(t.app, 'demo', { url: 'https://example.com', group: 'nope' }, '/demo/create'),
      422,
    ],
    [
      '310 for a social network',
      () => createJson(t.app, 'demo', { url: 'https://www.instagram.com/x' }, '/demo/create'),
      422,
    ],
    [
      '305 for a link to Snip itself',
      () => createJson(t.app, 'demo', { url: 'https://sn.ip/abcdefg' }, '/demo/create'),
      409,
    ],
  ];
  for (const [name, run, status] of errors) {
    it(`answers ${name}`, async () => {
      const answer = await run();
      assert.equal(answer.body.error, name.slice(0, 3));
      assert.equal(answer.status, status);
    });
  }

  for (const code of ['306', '307', '308', '309', '311'] as const) {
    it(`answers ${code} from target inspection`, async () => {
      inspector.outcome = () => ({ ok: false, code, reason: 'test' });
      const answer = await createJson(t.app, 'demo', { url: `https://example.com/${code}` }, '/demo/create');
      assert.equal(answer.body.error, code);
      assert.equal(answer.status, 422);
    });
  }

  it('accepts the demo group by API identifier and by numeric ID', async () => {
    assert.equal(
      (await createJson(t.app, 'demo', { url: 'https://example.com/g', group: 'demo' }, '/demo/create'))
        .status,
      201,
    );
    assert.equal(
      (await createForm(t.app, { apikey: 'demo', url: 'https://example.com/g', group: '1' }, '/demo/create'))
        .status,
      201,
    );
  });
});

describe('demo rate limit per address', () => {
  it('answers 429 in the envelope after DEMO_RATE_LIMIT requests per window', async () => {
    const t = await startTestApp({ env: { DEMO_RATE_LIMIT: '3' } });
    try {
      const statuses = [];
      await clearOfWindowEnd(t.config.demoRateWindowSeconds * 1000);
      for (let i = 0; i < 4; i++)
        statuses.push(
          (await createJson(t.app, 'demo', { url: `https://example.com/${i}` }, '/demo/create')).status,
        );
      assert.deepEqual(statuses, [201, 201, 201, 429]);
      const limited = await createJson(t.app, 'demo', { url: 'https://example.com/x' }, '/demo/create');
      assert.equal(limited.body.error, '429');
      assert.ok(Number(limited.headers['retry-after']) > 0);
      assert.equal(limited.headers['ratelimit-limit'], '3');
      // The account API keeps its own limits.
      assert.equal((await createJson(t.app, t.apiKey, { url: 'https://example.com/real' })).status, 201);
    } finally {
      await t.close();
    }
  });
});

describe('GET /demo/log', () => {
  it('lists demo requests newest first, with the client anonymized and keys redacted', async () => {
    const t = await startTestApp({ env: { DEMO_RATE_LIMIT: '1000' } });
    try {
      await createForm(t.app, { apikey: 'demo', url: 'https://example.com/first' }, '/demo/create');
      await createJson(t.app, t.apiKey, { url: 'https://example.com/second' }, '/demo/create');
      await createForm(t.app, { apikey: t.apiKey, url: 'https://example.com/third' }, '/demo/create');
      const response = await t.app.inject({ method: 'GET', url: '/demo/log' });
      assert.equal(response.statusCode, 200);
      assert.equal(response.body.includes(t.apiKey), false);
      const entries = response.json();
      assert.equal(entries.length, 3);
      assert.deepEqual(
        entries.map((e: { fields: { url: string } }) => e.fields.url),
        ['https://example.com/third', 'https://example.com/second', 'https://example.com/first'],
      );
      const [third, second, first] = entries;
      assert.equal(first.fields.apikey, 'demo');
      assert.equal(first.status, 201);
      assert.equal(first.encoding, 'form');
      assert.equal(first.body.success, 'true');
      assert.equal(second.fields['x-api-key'], '[redacted]');
      assert.equal(second.encoding, 'json');
      assert.equal(second.body.error, '303');
      assert.equal(third.fields.apikey, '[redacted]');
      assert.equal(first.client, '127.0.0.0/24');
      assert.match(first.time, /^\d{4}-\d{2}-\d{2}T/);
    } finally {
      await t.close();
    }
  });

  it('logs only the fields /create reads, and redacts key-shaped values under any name or in any field', async () => {
    const t = await startTestApp({ env: { DEMO_RATE_LIMIT: '1000' } });
    try {
      const leaked = `https://example.com/?k=${t.apiKey}`;
      await createForm(
        t.app,
        { apikey: 'demo', url: leaked, api_key: t.apiKey, key: t.apiKey, token: t.apiKey, group: 'demo' },
        '/demo/create',
      );
      await createJson(
        t.app,
        'demo',
        { url: 'https://example.com/json', note: t.apiKey, group: ['x'] },
        '/demo/create',
      );
      const response = await t.app.inject({ method: 'GET', url: '/demo/log' });
      assert.equal(response.body.includes(t.apiKey), false, 'a live key reached the public log');
      const [json, form] = response.json();
      assert.deepEqual(Object.keys(form.fields).sort(), ['apikey', 'group', 'url']);
      assert.equal(form.fields.url, 'https://example.com/?k=[redacted]');
      assert.deepEqual(Object.keys(json.fields).sort(), ['group', 'url', 'x-api-key']);
      assert.equal(json.fields.group, '[array]');
    } finally {
      await t.close();
    }
  });

  it('answers what /create answers for bodies built to break the log, and logs them', async () => {
    const t = await startTestApp({ env: { DEMO_RATE_LIMIT: '1000' } });
    const boundary = 'demo-boundary';
    const part = (name: string, value: string, file = '') =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file}\r\n\r\n${value}\r\n`;
    const multipart = (parts: string[]) => ({
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `${parts.join('')}--${boundary}--\r\n`,
    });
    const deep = `${'['.repeat(4600)}${']'.repeat(4600)}`;
    const shapes: Array<[string, { headers: Record<string, string>; payload: string }]> = [
      [
        'JSON nested 4,600 levels',
        {
          headers: { 'content-type': 'application/json', 'x-api-key': 'demo' },
          payload: `{"url":"https://example.com/","group":${deep}}`,
        },
      ],
      [
        'a __proto__ field',
        multipart([part('apikey', 'demo'), part('__proto__', 'x'), part('url', 'https://example.invalid/')]),
      ],
      [
        'four files',
        multipart(Array.from({ length: 4 }, (_, i) => part(`f${i}`, 'v', `; filename="f${i}.txt"`))),
      ],
      ['thirty parts', multipart(Array.from({ length: 30 }, (_, i) => part(`p${i}`, 'v')))],
    ];
    try {
      for (const [name, request] of shapes) {
        const answers = [];
        for (const url of ['/create', '/demo/create']) {
          const answer = await send(t.app, { method: 'POST', url, ...request });
          assert.equal(answer.body.success, 'false', `${name} on ${url}`);
          answers.push([answer.status, answer.body.error]);
        }
        assert.deepEqual(answers[1], answers[0], name);
        assert.ok(['300', '302'].includes(String(answers[1]?.[1])), `${name}: ${answers[1]}`);
      }
      const entries = (await t.app.inject({ method: 'GET', url: '/demo/log' })).json();
      assert.equal(entries.length, shapes.length);
      for (const entry of entries) {
        assert.ok(
          Object.keys(entry.fields).every((field) => ['apikey', 'x-api-key', 'url', 'group'].includes(field)),
        );
      }
    } finally {
      await t.close();
    }
  });

  it('keeps only the last 200 entries', async () => {
    const t = await startTestApp({ env: { DEMO_RATE_LIMIT: '1000' } });
    try {
      for (let i = 0; i < 205; i++) await createJson(t.app, 'demo', {}, '/demo/create');
      assert.equal((await t.app.inject({ method: 'GET', url: '/demo/log' })).json().length, 200);
    } finally {
      await t.close();
    }
  });
});

/** Opens the demo log's stream on a listening server, as `address` behind one proxy when given. */
function streamAt(base: string, address?: string): Promise<{ response: IncomingMessage; close: () => void }> {
  return new Promise((resolve, reject) => {
    const headers = address ? { 'x-forwarded-for': address } : undefined;
    const req = httpRequest(`${base}/demo/log/stream`, { headers }, (response) =>
      resolve({ response, close: () => req.destroy() }),
    );
    req.on('error', reject);
    req.end();
  });
}

describe('GET /demo/log/stream', () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await startTestApp({ env: { SSE_HEARTBEAT_SECONDS: '1', TRUST_PROXY: '1' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(() => t.close());

  const openStream = (address?: string) => streamAt(base, address);

  function nextChunk(response: IncomingMessage, match: RegExp): Promise<string> {
    return new Promise((resolve) => {
      let seen = '';
      const onData = (chunk: Buffer) => {
        seen += chunk.toString();
        if (match.test(seen)) {
          response.off('data', onData);
          resolve(seen);
        }
      };
      response.on('data', onData);
    });
  }

  it('delivers a new demo request as an event, and heartbeats', async () => {
    const { response, close } = await openStream();
    try {
      assert.equal(response.statusCode, 200);
      assert.match(String(response.headers['content-type']), /text\/event-stream/);
      const event = nextChunk(response, /event: entry\ndata: .*\n\n/);
      await createJson(t.app, 'demo', { url: 'https://example.com/streamed' }, '/demo/create');
      const data = /data: (.*)\n/.exec(await event)?.[1];
      const entry = JSON.parse(data ?? '{}');
      assert.equal(entry.fields.url, 'https://example.com/streamed');
      assert.equal(entry.status, 201);
      await nextChunk(response, /: heartbeat\n\n/);
    } finally {
      close();
    }
  });

  it('cleans up after 1,000 connect/disconnect cycles', async () => {
    const log = t.app.demoLog as MemoryDemoLog;
    for (let round = 0; round < 20; round++) {
      // Fifty addresses, as fifty visitors: an address holds two streams at most.
      const streams = await Promise.all(
        Array.from({ length: 50 }, (_, i) => openStream(`198.51.100.${i + 1}`)),
      );
      for (const stream of streams) stream.close();
    }
    // The server sees each close shortly after the client sends it; wait for that, bounded.
    for (let i = 0; i < 250 && log.listenerCount > 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(log.listenerCount, 0);
  });
});

describe('the streams an instance holds', () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    // A quarter of 12 connections: 3 streams in all; each lasts a second.
    const env = { MAX_CONNECTIONS: '12', TRUST_PROXY: '1', SSE_MAX_SECONDS: '1' };
    t = await startTestApp({ env });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(() => t.close());

  it('are two per address and a quarter of MAX_CONNECTIONS in all, then 429 with Retry-After', async () => {
    const first = await streamAt(base, '2001:db8:5:6::1');
    const second = await streamAt(base, '2001:db8:5:6::2');
    const third = await streamAt(base, '2001:db8:5:6::3');
    const other = await streamAt(base, '192.0.2.80');
    const beyond = await streamAt(base, '192.0.2.81');
    try {
      assert.deepEqual(
        [first, second, third, other, beyond].map((stream) => stream.response.statusCode),
        [200, 200, 429, 200, 429],
        'the same /64 holds two; the instance three in all',
      );
      assert.ok(Number(third.response.headers['retry-after']) > 0);
      assert.equal(JSON.parse(await bodyOf(third.response)).code, '429');
      // Everything else still answers.
      assert.equal((await fetch(`${base}/healthz`)).status, 200);
    } finally {
      for (const stream of [first, second, third, other, beyond]) stream.close();
    }
  });

  it('end after SSE_MAX_SECONDS, freeing their place', async () => {
    // The server sees the last test's closes shortly after they are sent; wait for that, bounded.
    const log = t.app.demoLog as MemoryDemoLog;
    for (let i = 0; i < 250 && log.listenerCount > 0; i++) await new Promise((r) => setTimeout(r, 20));
    const stream = await streamAt(base, '192.0.2.90');
    assert.equal(stream.response.statusCode, 200);
    await new Promise<void>((resolve) => stream.response.once('end', () => resolve()).resume());
    const again = await streamAt(base, '192.0.2.90');
    assert.equal(again.response.statusCode, 200);
    again.close();
  });
});

function bodyOf(response: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    response.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    response.on('end', () => resolve(body));
  });
}
