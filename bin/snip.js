#!/usr/bin/env -S node --disable-warning=ExperimentalWarning
// `npx snip …` and `npm start`: hands the arguments to src/main.ts (TypeScript, run natively by Node 24).
import { main } from '../src/main.ts';

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`snip: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  },
);
