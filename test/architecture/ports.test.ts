import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { FEATURES } from '../../src/features.ts';
import { SRC, sourceFiles } from './rooms.ts';

/**
 * Ports by capability (docs/adr/034): a feature names the store's ports it uses in its descriptor
 * and is handed those alone. No file of a feature or of the pages' building blocks takes the whole
 * `Store`, or reaches the kernel's store around its ports.
 */

const IMPORT_CLAUSE = /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+['"][^'"]*core\/ports\/store\.ts['"]/g;
const AROUND_PORTS: ReadonlyArray<[RegExp, string]> = [
  [/\bkernel\.(?:store|untimedStore|given\.store|portsOf)\b/, 'reads the kernel’s store'],
  [/\buntimedStore\b/, 'names the untimed store'],
  [/\{[^}]*\bstore\b[^}]*\}\s*=\s*kernel\b/, 'takes the store out of the kernel'],
  [/\bkernel:\s*\{[^}]*\bstore\b/, 'takes the store out of the kernel'],
];

/** What a file's text does to reach the whole store, one line per way. */
export function storeReaches(text: string): string[] {
  const found: string[] = [];
  for (const [, names] of text.matchAll(IMPORT_CLAUSE)) {
    const imported = (names ?? '').split(',').map((name) => name.replace(/^\s*type\s+/, '').trim());
    if (imported.some((name) => name === 'Store' || name.startsWith('Store '))) found.push('imports Store');
  }
  for (const [pattern, what] of AROUND_PORTS) if (pattern.test(text)) found.push(what);
  return found;
}

describe('the store by capability', () => {
  it('is reached by features and pages only through the ports they are handed', () => {
    const offences = ['features', 'web'].flatMap((room) =>
      sourceFiles(join(SRC, room), /\.ts$/).flatMap((file) =>
        storeReaches(readFileSync(file, 'utf8')).map((what) => `${relative(SRC, file)}: ${what}`),
      ),
    );
    assert.deepEqual(offences, []);
  });

  it('tells each way around the ports', () => {
    assert.deepEqual(storeReaches("import type { LinkStore, Store } from '../../core/ports/store.ts';"), [
      'imports Store',
    ]);
    assert.deepEqual(storeReaches("import type { Store as Whole } from '../core/ports/store.ts';"), [
      'imports Store',
    ]);
    assert.deepEqual(storeReaches('const found = await kernel.store.findLinkByCode(0, code);'), [
      'reads the kernel’s store',
    ]);
    assert.deepEqual(storeReaches('new AbuseScreen(kernel.untimedStore)'), [
      'reads the kernel’s store',
      'names the untimed store',
    ]);
    assert.deepEqual(storeReaches('const { config, store } = kernel;'), [
      'takes the store out of the kernel',
    ]);
    assert.deepEqual(storeReaches('run: async ({ kernel: { store } }) => store.migrate()'), [
      'takes the store out of the kernel',
    ]);
    assert.deepEqual(storeReaches('const ports = kernel.portsOf({ ports: ["links"] });'), [
      'reads the kernel’s store',
    ]);
    assert.deepEqual(
      storeReaches("import type { LinkStore, StoreOf } from '../../core/ports/store.ts';\nports.links"),
      [],
    );
  });

  it('has every feature with services, surfaces or commands name its ports', () => {
    for (const feature of FEATURES) {
      assert.ok(Array.isArray(feature.ports), `${feature.name} names no ports`);
      assert.equal(new Set(feature.ports).size, feature.ports.length, `${feature.name} names a port twice`);
    }
    const builders = FEATURES.filter((feature) => feature.services).map((feature) => feature.name);
    assert.ok(builders.length > 5, 'the features that build services were found');
  });

  it('has each descriptor that builds services say its ports in its index.ts', () => {
    const doors = sourceFiles(join(SRC, 'features'), /^index\.ts$/);
    const building = doors.filter((door) => /^\s*services:/m.test(readFileSync(door, 'utf8')));
    assert.ok(building.length > 5, 'the descriptors with services were found');
    for (const door of building) {
      assert.match(readFileSync(door, 'utf8'), /^\s*ports: \[/m, `${relative(SRC, door)} names no ports`);
    }
  });
});
