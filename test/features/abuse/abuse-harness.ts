import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { openStore } from '../../../src/adapters/open-store.ts';
import { buildApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { cliStore, type Run } from '../../fixtures/cli-harness.ts';
import { startTargetServer, type TargetServer } from '../../fixtures/target-server.ts';
import { type Answer, send } from '../../helper.ts';

/**
 * What the abuse suites share (docs/api.md §13): a SQLite store the operator's commands act on, a
 * server over the same store with the real inspector (loopback targets allowed), and a target server.
 * The commands announce nothing the server hears (no Redis): the server sees each change by polling
 * the store's versions, within about a second, so every wait here is for a condition, bounded.
 */
/** `env`: settings the server gets besides, asked for once the test's own servers have started. */
export function abuseHarness(options: { env?: () => Record<string, string> } = {}) {
  const cli = cliStore([['migrate', '--json']]);
  const state: {
    app: FastifyInstance;
    store: Store;
    target: TargetServer;
    key: string;
    slug: string;
    origin: string;
  } = {
    app: undefined as unknown as FastifyInstance,
    store: undefined as unknown as Store,
    target: undefined as unknown as TargetServer,
    key: '',
    slug: '',
    origin: '',
  };

  const ok = async (...argv: string[]) => {
    const run = await cli.snip(...argv, '--json');
    assert.equal(run.code, 0, `snip ${argv.join(' ')}: ${run.err} ${run.out}`);
    return run.json;
  };
  const refused = async (code: string, ...argv: string[]): Promise<Run> => {
    const run = await cli.snip(...argv, '--json');
    assert.equal(run.code, 1, `snip ${argv.join(' ')} should be refused: ${run.out}`);
    assert.equal(run.json.code, code);
    return run;
  };

  before(async () => {
    await cli.ready();
    state.target = await startTargetServer();
    await ok('plan', 'create', 'pro', '--url-quota', '1000', '--rate-limit', '10000');
    state.key = String(
      (
        await ok(
          'account',
          'create',
          'owner@example.com',
          '--plan',
          'pro',
          '--password',
          'correct horse battery',
        )
      ).api_key,
    );
    state.slug = String(((await ok('workspace', 'list')).items as Array<{ slug: string }>)[0]?.slug);
    state.store = await openStore(cli.env.DATABASE_URL as string, { prepare: true });
    const config = loadConfig({
      ...cli.env,
      ALLOW_PRIVATE_TARGETS: 'true',
      LINK_CACHE_TTL_SECONDS: '1',
      ...options.env?.(),
    });
    state.app = await buildApp(config, { store: state.store });
    // Listening, so that visits go through the hot path below the router, as a visitor's would.
    await state.app.listen({ port: 0, host: '127.0.0.1' });
    state.origin = `http://127.0.0.1:${(state.app.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await state.app?.close();
    await state.store?.close();
    await state.target?.close();
  });

  /** A link made through the API to a path of the target server (its host is 127.0.0.1). */
  const create = (url: string) =>
    send(state.app, {
      method: 'POST',
      url: '/api/v1/links',
      headers: { 'x-api-key': state.key, 'content-type': 'application/json' },
      payload: JSON.stringify({ url }),
    });

  /** GET of a short code, as a visitor's browser asks for it. */
  const visit = (code: string) =>
    send(state.app, {
      method: 'GET',
      url: `/${code}`,
      headers: { 'user-agent': 'Mozilla/5.0 Firefox/130.0' },
    });

  /** Waits (bounded) until a visit of the code answers `status`: the server polls the store's versions. */
  async function eventually(code: string, status: number): Promise<Answer> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const answer = await visit(code);
      if (answer.status === status || Date.now() > deadline) {
        assert.equal(answer.status, status, `/${code} should answer ${status}`);
        return answer;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Waits (bounded) until the condition holds. */
  async function until(condition: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (!(await condition())) {
      assert.ok(Date.now() < deadline, 'the server should have seen the change');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  return { cli, state, ok, refused, create, visit, eventually, until };
}
