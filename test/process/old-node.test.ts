import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/snip.js', import.meta.url));

/**
 * The machine's own node, when it is older than 24: first on PATH without the project's
 * node_modules/.bin (npm puts the pinned Node 24 there), then the usual system places.
 */
function olderNode(): string | undefined {
  const dirs = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir && !dir.includes('node_modules'));
  for (const dir of [...dirs, '/usr/local/bin', '/usr/bin']) {
    const candidate = join(dir, 'node');
    try {
      accessSync(candidate, constants.X_OK);
    } catch {
      continue;
    }
    const version = spawnSync(candidate, ['--version'], { encoding: 'utf8', timeout: 10_000 }).stdout ?? '';
    const major = Number(/^v(\d+)\./.exec(version)?.[1]);
    if (major < 24) return candidate;
  }
  return undefined;
}

const node = olderNode();

describe('bin/snip.js on a Node older than 24', () => {
  it('says in one line on stderr to use npx snip or npm start, and exits 1', {
    skip: !node && 'no Node older than 24 on this machine',
  }, () => {
    const run = spawnSync(node as string, [BIN, '--help'], { encoding: 'utf8', timeout: 10_000 });
    assert.equal(run.status, 1);
    assert.equal(run.stdout, '');
    const lines = run.stderr.split('\n').filter((line) => line !== '');
    assert.equal(lines.length, 1, run.stderr);
    assert.ok(lines[0]?.includes('npx snip'), run.stderr);
  });
});
