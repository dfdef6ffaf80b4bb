import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'node:test';

/**
 * The primary of `snip serve --processes N` (src/cluster/primary.ts) over workers that fail on
 * purpose (test/fixtures/cluster-primary.ts): no store, no app, only what the primary decides.
 */
async function primaryUntilExit(fails: 'start' | 'soon') {
  const child = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', 'test/fixtures/cluster-primary.ts'],
    { env: { ...process.env, WORKER_FAILS: fails }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let stdout = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  // A bound against a hang: the back-off of five replacements takes a few seconds.
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const [code, signal] = await once(child, 'exit');
  clearTimeout(timer);
  const lines = stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { level: number; role?: string; msg: string });
  return { code, signal, lines: lines.filter((line) => line.role === 'primary') };
}

describe('the primary of snip serve --processes', () => {
  it('fails the start with the worker’s exit code when a worker cannot start', async () => {
    const { code, signal, lines } = await primaryUntilExit('start');
    assert.equal(signal, null);
    assert.equal(code, 3);
    assert.equal(lines.filter((line) => line.msg === 'worker started').length, 2, 'none replaced');
  });

  it('replaces workers that die with back-off, then exits 1 on a crash loop', async () => {
    const { code, signal, lines } = await primaryUntilExit('soon');
    assert.equal(signal, null);
    assert.equal(code, 1);
    const started = lines.filter((line) => line.msg === 'worker started').length;
    assert.ok(started >= 6 && started <= 7, `${started} workers started: 2, then up to 5 replacements`);
    assert.ok(
      lines.some((line) => line.level === 60),
      'the crash loop is logged as fatal',
    );
  });
});
