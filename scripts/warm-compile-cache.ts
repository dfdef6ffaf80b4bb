/**
 * Run by `npm ci` (the `prepare` script): loads every module of src/ once with Node's compile cache on,
 * so the first `npm start` or `npx snip …` after an install finds Snip's TypeScript stripped and
 * compiled already. Without it the first start compiles every module it loads (~0.6 s of CPU) and
 * keeps Node's TypeScript stripper loaded for the life of the server (~16 MB of resident memory).
 * It runs with the flags of `npm start`: V8 keeps code compiled under other flags apart.
 */
import { readdirSync } from 'node:fs';
import { enableCompileCache, flushCompileCache } from 'node:module';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');

function* modules(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* modules(path);
    // A thread's entry module runs its thread's work as it loads; its thread compiles it once.
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('-worker.ts')) yield path;
  }
}

enableCompileCache();
for (const path of modules(join(root, 'src'))) {
  try {
    await import(pathToFileURL(path).href);
  } catch (error) {
    // Only a cache is at stake: the install goes on, and the module compiles when first used.
    process.stderr.write(`warm-compile-cache: ${relative(root, path)}: ${String(error)}\n`);
  }
}
flushCompileCache();
// Modules may have armed timers as they loaded; nothing of them is wanted here.
process.exit(0);
