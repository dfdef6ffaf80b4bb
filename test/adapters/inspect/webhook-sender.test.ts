import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import type { ResolvedAddress, Resolver } from '../../../src/adapters/inspect/types.ts';
import { DELIVERY_ERRORS, webhookSender } from '../../../src/adapters/inspect/webhook-sender.ts';
import type { DeliveryAttempt, OutboundMessage, WebhookSender } from '../../../src/core/ports/event-sinks.ts';
import { eventId, newSigningSecret } from '../../../src/core/webhook-events.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  method: string | undefined;
}

/** A loopback receiver that records every request and every connection, answering with `handler`. */
async function startReceiver(handler: Handler = (_req, res) => res.writeHead(204).end()) {
  const received: Received[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        method: req.method,
      });
      handler(req, res);
    });
  });
  server.on('connection', () => {
    connections++;
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  let closed: Promise<unknown> | undefined;
  return {
    port,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    connections: () => connections,
    /** Closes the server and drops open connections; safe to call twice. */
    async close() {
      if (!closed) {
        closed = once(server, 'close');
        server.closeAllConnections();
        server.close();
      }
      await closed;
    },
  };
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** A fake DNS answering from a table, recording each question. */
function fakeDns(table: Record<string, readonly string[]>) {
  const asked: string[] = [];
  const resolve: Resolver = async (hostname) => {
    asked.push(hostname);
    return (table[hostname] ?? []).map(
      (address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }),
    );
  };
  return { resolve, asked };
}

function message(): OutboundMessage {
  const body = JSON.stringify({
    type: 'link.created',
    timestamp: new Date().toISOString(),
    data: { code: 'abc', note: 'ünïcode ✓' },
  });
  return { id: eventId(), type: 'link.created', body };
}

/** The three Standard Webhooks headers of a received request, as the verifier wants them. */
function webhookHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return {
    'webhook-id': String(headers['webhook-id']),
    'webhook-timestamp': String(headers['webhook-timestamp']),
    'webhook-signature': String(headers['webhook-signature']),
  };
}

function assertFailed(attempt: DeliveryAttempt, status: number | null): void {
  assert.equal(attempt.ok, false, JSON.stringify(attempt));
  assert.equal(attempt.status, status);
  assert.equal(typeof attempt.error, 'string');
  assert.ok(attempt.durationMs >= 0);
}

const receivers: Receiver[] = [];
const senders: WebhookSender[] = [];

async function receiver(handler?: Handler): Promise<Receiver> {
  const started = await startReceiver(handler);
  receivers.push(started);
  return started;
}

function sender(options: Parameters<typeof webhookSender>[0]): WebhookSender {
  const made = webhookSender(options);
  senders.push(made);
  return made;
}

after(async () => {
  await Promise.all(senders.map((made) => made.close()));
  await Promise.all(receivers.map((started) => started.close()));
});

describe('webhook sender, private addresses allowed', () => {
  it('delivers the exact body with headers that standardwebhooks verifies', async () => {
    const target = await receiver();
    const secret = newSigningSecret();
    const sent = message();
    const attempt = await sender({ allowPrivate: true }).send(target.url(), secret, sent);
    assert.equal(attempt.ok, true, JSON.stringify(attempt));
    assert.equal(attempt.status, 204);
    assert.equal(attempt.error, undefined);
    const [request] = target.received;
    assert.ok(request);
    assert.equal(request.method, 'POST');
    assert.equal(request.body, sent.body);
    assert.equal(request.headers['content-type'], 'application/json');
    assert.equal(request.headers['user-agent'], 'Snip-Webhooks/1');
    assert.equal(request.headers['webhook-id'], sent.id);
    const headers = webhookHeaders(request.headers);
    assert.deepEqual(new Webhook(secret).verify(request.body, headers), JSON.parse(sent.body));
    assert.throws(() => new Webhook(secret).verify(request.body.replace('abc', 'abd'), headers));
    assert.throws(() => new Webhook(newSigningSecret()).verify(request.body, headers));
  });

  it('signs with the injected clock and sends the given user agent', async () => {
    const target = await receiver();
    const at = Date.UTC(2030, 0, 2, 3, 4, 5, 678);
    const made = sender({ allowPrivate: true, now: () => at, userAgent: 'Test-Agent/9' });
    assert.equal((await made.send(target.url(), newSigningSecret(), message())).ok, true);
    const [request] = target.received;
    assert.equal(request?.headers['webhook-timestamp'], String(Math.floor(at / 1000)));
    assert.equal(request?.headers['user-agent'], 'Test-Agent/9');
  });

  it('counts only a 2xx as delivered', async () => {
    const failing = await receiver((_req, res) => res.writeHead(500).end('oops'));
    const made = sender({ allowPrivate: true });
    const attempt = await made.send(failing.url(), newSigningSecret(), message());
    assertFailed(attempt, 500);
    const accepting = await receiver((_req, res) => res.writeHead(204).end());
    const delivered = await made.send(accepting.url(), newSigningSecret(), message());
    assert.deepEqual({ ok: delivered.ok, status: delivered.status }, { ok: true, status: 204 });
  });

  it('never follows a redirect', async () => {
    const elsewhere = await receiver();
    const redirecting = await receiver((_req, res) =>
      res.writeHead(302, { location: elsewhere.url('/moved') }).end(),
    );
    const attempt = await sender({ allowPrivate: true }).send(
      redirecting.url(),
      newSigningSecret(),
      message(),
    );
    assertFailed(attempt, 302);
    assert.equal(attempt.error, DELIVERY_ERRORS.redirect);
    assert.equal(redirecting.received.length, 1);
    assert.equal(elsewhere.connections(), 0);
    assert.equal(elsewhere.received.length, 0);
  });

  it('cuts a receiver that never answers at the deadline', async () => {
    const hanging = await receiver(() => {});
    const attempt = await sender({ allowPrivate: true, timeoutMs: 300 }).send(
      hanging.url(),
      newSigningSecret(),
      message(),
    );
    assertFailed(attempt, null);
    assert.equal(attempt.error, DELIVERY_ERRORS.timeout);
  });

  it('reads only a little of a huge answer and drops the connection', async () => {
    const total = 64 * 1024 * 1024;
    let resolveOutcome: (finished: boolean) => void = () => {};
    const outcome = new Promise<boolean>((resolve) => {
      resolveOutcome = resolve;
    });
    const streaming = await receiver((_req, res) => {
      res.writeHead(200, { 'content-length': String(total) });
      res.on('close', () => resolveOutcome(res.writableFinished));
      const chunk = Buffer.alloc(1024 * 1024, 'x');
      let written = 0;
      const pump = () => {
        while (written < total && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (written >= total) res.end();
      };
      pump();
    });
    const attempt = await sender({ allowPrivate: true, maxAnswerBytes: 1024 }).send(
      streaming.url(),
      newSigningSecret(),
      message(),
    );
    assert.deepEqual({ ok: attempt.ok, status: attempt.status }, { ok: true, status: 200 });
    assert.equal(await outcome, false, 'the receiver finished writing the whole answer');
  });

  it('does not let a hanging receiver hold up another send to the same origin', async () => {
    const target = await receiver((req, res) => {
      if (req.url !== '/hang') res.writeHead(204).end();
    });
    const made = sender({ allowPrivate: true, timeoutMs: 30_000 });
    const hung = made.send(target.url('/hang'), newSigningSecret(), message());
    let hungSettled = false;
    void hung.then(() => {
      hungSettled = true;
    });
    const quick = await made.send(target.url('/quick'), newSigningSecret(), message());
    assert.equal(quick.ok, true, JSON.stringify(quick));
    assert.equal(hungSettled, false);
    await target.close();
    assertFailed(await hung, null);
  });

  it('connects a name to the address the resolver gave, keeping the name in Host', async () => {
    const target = await receiver();
    const dns = fakeDns({ 'hooks.test': ['127.0.0.1'] });
    const made = sender({ allowPrivate: true, resolve: dns.resolve });
    const attempt = await made.send(`http://hooks.test:${target.port}/in`, newSigningSecret(), message());
    assert.equal(attempt.ok, true, JSON.stringify(attempt));
    assert.deepEqual(dns.asked, ['hooks.test']);
    assert.equal(target.received[0]?.headers.host, `hooks.test:${target.port}`);
  });

  it('answers a failed connection with no status', async () => {
    const gone = await startReceiver();
    const url = gone.url();
    await gone.close();
    const attempt = await sender({ allowPrivate: true }).send(url, newSigningSecret(), message());
    assertFailed(attempt, null);
    assert.doesNotMatch(attempt.error ?? '', /127\.0\.0\.1|ECONN/);
  });
});

describe('webhook sender, private addresses refused', () => {
  it('refuses a private IP literal without sending anything', async () => {
    const target = await receiver();
    const attempt = await sender({ allowPrivate: false }).send(target.url(), newSigningSecret(), message());
    assertFailed(attempt, null);
    assert.equal(attempt.error, DELIVERY_ERRORS.blocked);
    assert.equal(target.connections(), 0);
  });

  it('refuses a name resolving to loopback before connecting to it', async () => {
    const target = await receiver();
    const dns = fakeDns({ 'hooks.test': ['127.0.0.1'] });
    const made = sender({ allowPrivate: false, resolve: dns.resolve });
    const attempt = await made.send(`http://hooks.test:${target.port}/`, newSigningSecret(), message());
    assertFailed(attempt, null);
    assert.equal(attempt.error, DELIVERY_ERRORS.blocked);
    assert.equal(target.connections(), 0);
  });

  for (const addresses of [['169.254.169.254'], ['10.0.0.1'], ['93.184.215.14', '10.0.0.1']]) {
    it(`refuses a name resolving to ${addresses.join(' and ')}, naming no address`, async () => {
      const dns = fakeDns({ 'hooks.example': addresses });
      const made = sender({ allowPrivate: false, resolve: dns.resolve, timeoutMs: 5000 });
      const attempt = await made.send('https://hooks.example/in', newSigningSecret(), message());
      assertFailed(attempt, null);
      assert.equal(attempt.error, DELIVERY_ERRORS.blocked);
      assert.deepEqual(dns.asked, ['hooks.example']);
      for (const address of addresses) assert.ok(!attempt.error?.includes(address));
    });
  }

  for (const url of ['ftp://hooks.example/in', 'garbage', '', 'file:///etc/passwd', 'javascript:alert(1)']) {
    it(`answers ${JSON.stringify(url)} as not an http(s) URL, without throwing`, async () => {
      const attempt = await sender({ allowPrivate: false }).send(url, newSigningSecret(), message());
      assertFailed(attempt, null);
      assert.equal(attempt.error, DELIVERY_ERRORS.notHttp);
    });
  }
});
