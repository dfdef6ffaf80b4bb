import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startServerProcess } from './server-process.ts';

/** A bound against a hang, not a measure of speed: a loaded machine starts a server slowly. */
const EXIT_WITHIN_MS = 60_000;

/** Runs `snip serve` with the environment until it exits by itself: its code, signal and output. */
async function serveUntilExit(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'bin/snip.js', 'serve'], {
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_WITHIN_MS);
  const [code, signal] = await once(child, 'exit');
  clearTimeout(timer);
  return { code, signal, stdout, stderr };
}

describe('a server that cannot listen', () => {
  it('closes what it opened and exits non-zero when its port is taken', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'snip-listen-'));
    const taken = createServer();
    taken.listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const { port } = taken.address() as { port: number };
    try {
      const exited = await serveUntilExit({
        PORT: String(port),
        DATABASE_URL: `sqlite:${join(dir, 'snip.db')}`,
      });
      assert.equal(exited.signal, null, 'it exited by itself, not killed after the bound');
      assert.equal(exited.code, 1);
      const logged = exited.stdout
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

  it('refuses a second server on the same SQLite file, and serves again once the first is gone', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'snip-second-'));
    const env = { DATABASE_URL: `sqlite:${join(dir, 'snip.db')}` };
    try {
      const first = await startServerProcess(env);
      const second = await serveUntilExit({ ...env, PORT: '0' });
      assert.equal(second.signal, null, 'it exited by itself, not killed after the bound');
      assert.equal(second.code, 1);
      assert.ok(second.stderr.includes(join(dir, 'snip.db')), 'it names the file it cannot serve');
      assert.equal((await fetch(`${first.url}/healthz`)).status, 200, 'the first one serves on');
      // Killed without a goodbye: the operating system drops its lock with it.
      await first.stop('SIGKILL');
      const next = await startServerProcess(env);
      assert.equal((await fetch(`${next.url}/healthz`)).status, 200);
      assert.equal(await next.stop('SIGTERM'), 0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
