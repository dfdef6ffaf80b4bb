import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';

/**
 * The command line loads only what a command needs (docs/adr/034): `snip --help` and a command's
 * --help load no feature's code, only the registry's descriptors and the commands' usage; a
 * command without DATABASE_URL makes no store it was not asked to make (--create).
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const SNIP = join(ROOT, 'bin', 'snip.js');
const dir = mkdtempSync(join(tmpdir(), 'snip-lazy-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// Lists every module the process loads, on stderr, once it exits.
const hook = join(dir, 'loaded.mjs');
writeFileSync(
  hook,
  `import { registerHooks } from 'node:module';
const seen = [];
registerHooks({ load(url, context, next) { seen.push(url); return next(url, context); } });
process.on('exit', () => process.stderr.write(seen.join('\\n') + '\\n'));
`,
);

function snip(argv: string[], options: { cwd?: string; env?: Record<string, string>; hook?: boolean } = {}) {
  const env = { ...process.env, ...options.env };
  delete env.DATABASE_URL;
  Object.assign(env, options.env);
  const flags = ['--disable-warning=ExperimentalWarning', ...(options.hook ? ['--import', hook] : [])];
  return spawnSync(process.execPath, [...flags, SNIP, ...argv], {
    cwd: options.cwd ?? dir,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

/**
 * The files of a feature's implementation a run loaded: its services, its HTTP surfaces, its routes
 * and pages' plugins, its commands' code. (The doors may re-export a few small values other features
 * use; those are not what a command runs.)
 */
function featureCode(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((url) => url.includes('/src/features/'))
    .map((url) => url.slice(url.indexOf('/src/features/') + 1))
    .filter((path) => /\/(services|http)\.ts$|-(commands|command|deps|routes|page|pages)\.ts$/.test(path));
}

describe('the command line loads what a command needs', () => {
  it('prints the usage without loading a feature’s code, the server or a database client', () => {
    for (const argv of [['--help'], ['link', '--help'], ['link', 'list', '--help']]) {
      const run = snip(argv, { hook: true });
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /^usage:/);
      assert.deepEqual(featureCode(run.stderr), [], `snip ${argv.join(' ')}`);
      assert.ok(!run.stderr.includes('/src/app.ts'), 'the server was loaded');
      assert.ok(!run.stderr.includes('node_modules/fastify/'), 'fastify was loaded');
      assert.ok(!run.stderr.includes('/src/adapters/'), 'an adapter was loaded');
      assert.ok(!run.stderr.includes('@sinclair/typebox'), 'schemas were loaded');
    }
  });

  it('loads its own feature’s code for a command, and not the server', () => {
    const store = `sqlite:${join(dir, 'loaded.db')}`;
    const run = snip(['migrate', '--json'], { env: { DATABASE_URL: store }, hook: true });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(featureCode(run.stderr), ['src/features/ops/cli/ops-commands.ts']);
    assert.ok(!run.stderr.includes('/src/app.ts'), 'the server was loaded');
  });
});

describe('a command without DATABASE_URL', () => {
  it('refuses to make ./data/snip.db unasked (64), naming it and --create', () => {
    const cwd = mkdtempSync(join(dir, 'fresh-'));
    const run = snip(['migrate', '--json'], { cwd });
    assert.equal(run.status, 64, run.stderr);
    assert.match(run.stderr, /data\/snip\.db/);
    assert.match(run.stderr, /--create/);
    assert.equal(existsSync(join(cwd, 'data', 'snip.db')), false);
  });

  it('makes it with --create, and uses it without --create afterwards', () => {
    const cwd = mkdtempSync(join(dir, 'created-'));
    const created = snip(['migrate', '--create', '--json'], { cwd });
    assert.equal(created.status, 0, created.stderr);
    assert.ok(existsSync(join(cwd, 'data', 'snip.db')));
    const again = snip(['plan', 'list', '--json'], { cwd });
    assert.equal(again.status, 0, again.stderr);
  });
});
