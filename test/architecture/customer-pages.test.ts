import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, it } from 'node:test';
import { SRC, sourceFiles } from './rooms.ts';

/**
 * A customer's page never shows a command (docs/api.md §22): what the operator runs on the server is
 * theirs to know, not a step a customer can take. Every page template of the features and of web/
 * is read (the operator's console aside), its comments left out, for `npx snip …` or `snip <noun> …`.
 */

const COMMAND =
  /\b(?:npx\s+snip|snip\s+(?:account|workspace|plan|link|user|key|group|member|domain|blocklist|report|operator|webhook|serve|migrate))\b/;

const isPage = (path: string) =>
  !path.startsWith('features/admin/') &&
  (/^features\/[^/]+\/pages\//.test(path) ||
    /^features\/[^/]+\/[^/]*-page\.ts$/.test(path) ||
    path.startsWith('web/'));

/** The lines of a file outside its comments. */
function codeLines(text: string): string[] {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .filter((line) => !line.trim().startsWith('//'));
}

describe('customer pages', () => {
  it('show no command', () => {
    const pages = sourceFiles(SRC, /\.(ts|js)$/)
      .map((file) => [relative(SRC, file), file] as const)
      .filter(([path]) => isPage(path));
    assert.ok(pages.length > 40, 'the page templates are found');
    const found = pages.flatMap(([path, file]) =>
      codeLines(readFileSync(file, 'utf8'))
        .filter((line) => COMMAND.test(line))
        .map((line) => `${path}: ${line.trim().slice(0, 120)}`),
    );
    assert.deepEqual(found, []);
  });
});
