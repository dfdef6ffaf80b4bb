import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

/** A bound against a hang, not a measure of speed: a loaded machine starts a server slowly. */
const EXIT_WITHIN_MS = 60_000;

describe('a server that cannot listen', () => {
  it('closes what it opened and exits non-zero when its port is taken', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'snip-listen-'));
    const taken = createServer();
    taken.listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const { port } = taken.address() as { port: number };
    try {
      const child = spawn(
        process.execPath,
        ['--disable-warning=ExperimentalWarning', 'bin/snip.js', 'serve'],
        {
          env: {
            ...process.env,
            PORT: String(port),
            HOST: '127.0.0.1',
            LOG_LEVEL: 'error',
            DATABASE_URL: `sqlite:${join(dir, 'snip.db')}`,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      child.stdout.on('data', (chunk) => {
        output += chunk;
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_WITHIN_MS);
      const [code, signal] = await once(child, 'exit');
      clearTimeout(timer);
      assert.equal(signal, null, 'it exited by itself, not killed after the bound');
      assert.equal(code, 1);
      const logged = output
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { err?: { code?: string } });
      assert.ok(
        logged.some((line) => line.err?.code === 'EADDRINUSE'),
        'the reason is logged',
      );
    } finally {
      taken.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
