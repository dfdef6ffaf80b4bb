import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, it } from 'node:test';
import { roomOf, SRC, sourceFiles } from './rooms.ts';

/**
 * The sizes the house keeps (docs/adr/034): no source file over 300 lines, and no feature holding
 * more than a third of the features' lines. Files are cut by meaning, not by a median or a
 * function's length: those caps made files split in two places (ADR 034 says why they went).
 */

const MAX_FILE_LINES = 300;
const MAX_FEATURE_SHARE = 1 / 3;

const lineCount = (text: string) => text.split('\n').length;

export function oversizedFiles(lines: ReadonlyMap<string, number>): string[] {
  return [...lines].filter(([, n]) => n > MAX_FILE_LINES).map(([path, n]) => `${path}: ${n} lines`);
}

/** Each feature's lines over all the features' lines, the features over the limit named. */
export function crowdedFeatures(lines: ReadonlyMap<string, number>): string[] {
  const perFeature = new Map<string, number>();
  for (const [path, n] of lines) {
    const room = roomOf(path);
    if (room.startsWith('features/')) perFeature.set(room, (perFeature.get(room) ?? 0) + n);
  }
  const total = [...perFeature.values()].reduce((sum, n) => sum + n, 0);
  return [...perFeature]
    .filter(([, n]) => n > total * MAX_FEATURE_SHARE)
    .map(([room, n]) => `${room}: ${n} of ${total} lines`);
}

describe('the sizes of src/', () => {
  const lines = new Map(
    sourceFiles(SRC, /\.ts$/).map((file) => [relative(SRC, file), lineCount(readFileSync(file, 'utf8'))]),
  );

  it('keeps every file under 300 lines', () => {
    assert.deepEqual(oversizedFiles(lines), []);
  });

  it('keeps every feature under a third of the features', () => {
    assert.deepEqual(crowdedFeatures(lines), []);
  });

  it('reports a file and a feature over their limits', () => {
    const files = new Map([
      ['core/big.ts', 301],
      ['core/small.ts', 300],
      ['features/links/a.ts', 200],
      ['features/groups/a.ts', 50],
      ['features/demo/a.ts', 49],
    ]);
    assert.deepEqual(oversizedFiles(files), ['core/big.ts: 301 lines']);
    assert.deepEqual(crowdedFeatures(files), ['features/links: 200 of 299 lines']);
  });
});
