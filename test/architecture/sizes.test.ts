import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { roomOf, SRC, sourceFiles } from './rooms.ts';

/**
 * The sizes the house keeps (docs/adr/024): no source file over 300 lines and their median under
 * 80; no function over 80 lines; no feature holding more than a third of the features' lines.
 */

const MAX_FILE_LINES = 300;
const MAX_MEDIAN_LINES = 80;
const MAX_FUNCTION_LINES = 80;
const MAX_FEATURE_SHARE = 1 / 3;

const lineCount = (text: string) => text.split('\n').length;

export function oversizedFiles(lines: ReadonlyMap<string, number>): string[] {
  return [...lines].filter(([, n]) => n > MAX_FILE_LINES).map(([path, n]) => `${path}: ${n} lines`);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
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

/** Every function of a source text longer than the limit, as "name (lines)". */
export function longFunctions(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.end).line;
      const lines = last - first + 1;
      if (lines > MAX_FUNCTION_LINES) found.push(`${path}:${first + 1} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('the sizes of src/', () => {
  const texts = new Map(
    sourceFiles(SRC, /\.ts$/).map((file) => [relative(SRC, file), readFileSync(file, 'utf8')]),
  );
  const lines = new Map([...texts].map(([path, text]) => [path, lineCount(text)]));

  it('keeps every file under 300 lines and the median under 80', () => {
    assert.deepEqual(oversizedFiles(lines), []);
    assert.ok(median([...lines.values()]) < MAX_MEDIAN_LINES, `median ${median([...lines.values()])}`);
  });

  it('keeps every feature under a third of the features', () => {
    assert.deepEqual(crowdedFeatures(lines), []);
  });

  it('keeps every function under 80 lines', () => {
    assert.deepEqual(
      [...texts].flatMap(([path, text]) => longFunctions(path, text)),
      [],
    );
  });

  it('reports a file, a median, a feature and a function over their limits', () => {
    const files = new Map([
      ['core/big.ts', 301],
      ['core/small.ts', 300],
      ['features/links/a.ts', 200],
      ['features/groups/a.ts', 50],
      ['features/demo/a.ts', 49],
    ]);
    assert.deepEqual(oversizedFiles(files), ['core/big.ts: 301 lines']);
    assert.equal(median([10, 90, 100]), 90);
    assert.deepEqual(crowdedFeatures(files), ['features/links: 200 of 299 lines']);
    const body = Array.from({ length: 80 }, (_, i) => `  const a${i} = ${i};`).join('\n');
    const long = `export function long() {\n${body}\n}\nconst short = () => {\n  return 1;\n};\n`;
    assert.deepEqual(longFunctions('x.ts', long), ['x.ts:1 (82 lines)']);
  });
});
