import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { roomOf, SRC, sourceFiles } from './rooms.ts';

/**
 * The house's rules (docs/adr/024, 034): dependencies point inward. core/ imports nothing of the
 * project outside itself; adapters/ import core/ and each other; the building blocks http/, web/ and
 * terminal/ import core/ and each other; kernel/ imports those, adapters/ and config.ts; a feature
 * imports the kernel, the building blocks, core/, its own folder, and another feature only through
 * that feature's index.ts; the registry (features.ts) is the one file outside features/ that names
 * a feature, through its index.ts; cluster/ (the primary of --processes N) imports only itself; the entries (app.ts, cli.ts, main.ts) name none. No import goes
 * round in a circle, between files or between features.
 */

const ENTRIES = new Set(['app.ts', 'cli.ts', 'main.ts']);
const BLOCKS = ['http', 'web', 'terminal'];

/** A feature's door: features/<name>/index.ts. */
const isDoor = (path: string) => /^features\/[^/]+\/index\.ts$/.test(path);

const ALLOWED: Record<string, (target: string, room: string) => boolean> = {
  core: (target) => roomOf(target) === 'core',
  adapters: (target) => ['core', 'adapters'].includes(roomOf(target)),
  http: (target) => ['core', ...BLOCKS].includes(roomOf(target)),
  web: (target) => ['core', ...BLOCKS].includes(roomOf(target)),
  terminal: (target) => ['core', ...BLOCKS].includes(roomOf(target)),
  'config.ts': (target) => roomOf(target) === 'core',
  kernel: (target) => ['core', 'adapters', 'kernel', 'config.ts', ...BLOCKS].includes(roomOf(target)),
  feature: (target, room) => {
    const to = roomOf(target);
    if (to === room || ['core', 'kernel', ...BLOCKS].includes(to)) return true;
    return to.startsWith('features/') && isDoor(target);
  },
  'features.ts': (target) => isDoor(target) || roomOf(target) === 'kernel',
  // The primary and worker seats of `snip serve --processes N`: node:cluster, no part of the app.
  cluster: (target) => roomOf(target) === 'cluster',
  entry: (target) => !roomOf(target).startsWith('features/'),
};

/** Every import of the project that breaks a rule, as "from → to". */
export function violations(imports: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of imports) {
    const room = roomOf(from);
    const rule = room.startsWith('features/')
      ? ALLOWED.feature
      : ENTRIES.has(room)
        ? ALLOWED.entry
        : ALLOWED[room];
    if (!rule) {
      found.push(`${from}: a file outside every room`);
      continue;
    }
    for (const target of targets) {
      if (!rule(target, room)) found.push(`${from} → ${target}`);
    }
  }
  return found;
}

/** The circles of a graph (its strongly connected parts of more than one node, or a node onto itself). */
export function circles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(to) ?? 0));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node) ?? 0, index.get(to) ?? 0));
    }
    if (low.get(node) !== index.get(node)) return;
    const part: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      part.push(member);
    } while (member !== node);
    if (part.length > 1 || (edges.get(node) ?? []).includes(node)) found.push(part.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** Which feature imports which, from the imports between files. */
export function featureGraph(imports: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const graph = new Map<string, Set<string>>();
  for (const [from, targets] of imports) {
    const room = roomOf(from);
    if (!room.startsWith('features/')) continue;
    const out = graph.get(room) ?? new Set<string>();
    graph.set(room, out);
    for (const target of targets) {
      const to = roomOf(target);
      if (to.startsWith('features/') && to !== room) out.add(to);
    }
  }
  return new Map([...graph].map(([room, out]) => [room, [...out]]));
}

const IMPORT = /(?:from\s+|import\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
/** A file named to be loaded apart (a worker, an asset): bound by the rules, but no import. */
const REFERENCE = /new URL\(\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** For each file of src/ (relative path), the files of src/ it imports (or, with REFERENCE, names). */
function projectImports(pattern = IMPORT): Map<string, string[]> {
  const imports = new Map<string, string[]>();
  for (const file of sourceFiles(SRC, /\.(ts|js)$/)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(pattern)]
      .map((match) => resolve(dirname(file), match[1] ?? ''))
      .filter((target) => target.startsWith(SRC) && /\.(ts|js)$/.test(target))
      .map((target) => relative(SRC, target));
    imports.set(relative(SRC, file), targets);
  }
  return imports;
}

describe('the layout of src/', () => {
  const imports = projectImports();

  it('reads the imports of every room', () => {
    const rooms = new Set([...imports.keys()].map(roomOf));
    for (const room of [
      'core',
      'adapters',
      'kernel',
      'http',
      'web',
      'terminal',
      'features/links',
      'features/redirect',
    ]) {
      assert.ok(rooms.has(room), `no files found in ${room}`);
    }
    assert.ok([...imports.values()].some((targets) => targets.length > 0));
  });

  it('keeps every import pointing inward, and features meeting only through their index.ts', () => {
    assert.deepEqual(violations(imports), []);
    assert.deepEqual(violations(projectImports(REFERENCE)), []);
  });

  it('reports an import that breaks a rule', () => {
    const broken = new Map([
      ['core/errors.ts', ['adapters/sqlite/store.ts', 'core/entities.ts']],
      [
        'adapters/sqlite/links.ts',
        ['features/redirect/link-cache.ts', 'core/entities.ts', 'adapters/sql/rows.ts'],
      ],
      ['features/demo/index.ts', ['features/links/create-link.ts', 'features/links/index.ts', 'web/html.ts']],
      ['features/links/api/links-api.ts', ['adapters/sqlite/store.ts', 'terminal/command.ts']],
      ['web/layout.ts', ['http/api-statuses.ts', 'features/links/index.ts']],
      ['terminal/command.ts', ['adapters/open-store.ts']],
      ['app.ts', ['features/links/index.ts', 'kernel/kernel.ts', 'adapters/open-store.ts']],
      ['cli.ts', ['features/workspaces/cli/account-commands.ts']],
      ['features.ts', ['features/links/index.ts', 'features/links/services.ts']],
      ['kernel/kernel.ts', ['features/links/index.ts', 'adapters/open-store.ts', 'web/html.ts']],
      ['config.ts', ['web/html.ts']],
      ['stray.ts', ['core/errors.ts']],
    ]);
    assert.deepEqual(violations(broken), [
      'core/errors.ts → adapters/sqlite/store.ts',
      'adapters/sqlite/links.ts → features/redirect/link-cache.ts',
      'features/demo/index.ts → features/links/create-link.ts',
      'features/links/api/links-api.ts → adapters/sqlite/store.ts',
      'web/layout.ts → features/links/index.ts',
      'terminal/command.ts → adapters/open-store.ts',
      'app.ts → features/links/index.ts',
      'cli.ts → features/workspaces/cli/account-commands.ts',
      'features.ts → features/links/services.ts',
      'kernel/kernel.ts → features/links/index.ts',
      'config.ts → web/html.ts',
      'stray.ts: a file outside every room',
    ]);
  });

  it('has no circle of imports between files, nor between features', () => {
    assert.deepEqual(circles(imports), []);
    assert.deepEqual(circles(featureGraph(imports)), []);
  });

  it('reports a circle of files and a circle of features', () => {
    const files = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
      ['e.ts', ['e.ts']],
    ]);
    assert.deepEqual(circles(files), [['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
    const features = new Map([
      ['features/links/index.ts', ['features/groups/index.ts']],
      ['features/groups/cli/commands.ts', ['features/links/index.ts']],
      ['features/demo/index.ts', ['features/links/index.ts']],
    ]);
    assert.deepEqual(circles(featureGraph(features)), [['features/groups', 'features/links']]);
  });
});
