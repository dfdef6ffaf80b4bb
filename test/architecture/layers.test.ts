import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

/**
 * The house's rules (docs/adr/012): dependencies point inward. core/ imports nothing of the project
 * outside itself; adapters/ import core/ and each other; http/ and web/ import core/; a feature
 * imports core/, http/, web/ and its own folder, never another feature. Only the entry files at the
 * top of src/ (app.ts, main.ts, cli.ts) see everything.
 */

const SRC = resolve(import.meta.dirname, '..', '..', 'src');

/** The room a file of src/ belongs to: core, adapters, http, web, features/<name>, or the file itself. */
export function roomOf(path: string): string {
  const [top = '', second = ''] = path.split('/');
  if (top === 'features') return `features/${second}`;
  return top;
}

const ALLOWED: Record<string, (target: string, from: string) => boolean> = {
  core: (target) => target === 'core',
  adapters: (target) => target === 'core' || target === 'adapters',
  http: (target) => target === 'core' || target === 'http',
  web: (target) => target === 'core' || target === 'web',
  'config.ts': (target) => target === 'core',
  feature: (target, from) => ['core', 'http', 'web', from].includes(target),
};

/** Every import of the project that breaks a rule, as "from → to". */
export function violations(imports: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of imports) {
    const room = roomOf(from);
    const rule = room.startsWith('features/') ? ALLOWED.feature : ALLOWED[room];
    if (!rule) continue; // app.ts, main.ts, cli.ts: the entry files wire everything
    for (const target of targets) {
      if (!rule(roomOf(target), room)) found.push(`${from} → ${target}`);
    }
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|js)$/.test(entry.name) ? [path] : [];
  });
}

const SPECIFIER = /(?:from\s+|import\(\s*|new URL\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** For each file of src/ (relative path), the files of src/ it imports. */
function projectImports(): Map<string, string[]> {
  const imports = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(SPECIFIER)]
      .map((match) => resolve(dirname(file), match[1] ?? ''))
      .filter((target) => target.startsWith(SRC))
      .map((target) => relative(SRC, target));
    imports.set(relative(SRC, file), targets);
  }
  return imports;
}

describe('the layout of src/', () => {
  const imports = projectImports();

  it('reads the imports of every room', () => {
    const rooms = new Set([...imports.keys()].map(roomOf));
    for (const room of ['core', 'adapters', 'http', 'web', 'features/create', 'features/redirect']) {
      assert.ok(rooms.has(room), `no files found in ${room}`);
    }
    assert.ok([...imports.values()].some((targets) => targets.length > 0));
  });

  it('keeps core, adapters, http and web free of features, and features apart from each other', () => {
    assert.deepEqual(violations(imports), []);
  });

  it('reports an import that breaks a rule', () => {
    const broken = new Map([
      ['core/errors.ts', ['adapters/sqlite/store.ts']],
      ['adapters/sqlite/links.ts', ['features/redirect/link-cache.ts', 'core/entities.ts']],
      ['features/accounts/index.ts', ['features/create/create-link.ts', 'web/html.ts']],
      ['web/layout.ts', ['http/api-statuses.ts']],
      ['app.ts', ['features/create/index.ts']],
    ]);
    assert.deepEqual(violations(broken), [
      'core/errors.ts → adapters/sqlite/store.ts',
      'adapters/sqlite/links.ts → features/redirect/link-cache.ts',
      'features/accounts/index.ts → features/create/create-link.ts',
      'web/layout.ts → http/api-statuses.ts',
    ]);
  });
});
