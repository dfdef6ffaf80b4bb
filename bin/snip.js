#!/usr/bin/env -S node --disable-warning=ExperimentalWarning --max-semi-space-size=16
// `npx snip …` and `npm start`: hands the arguments to src/main.ts (TypeScript, run natively by Node 24).
// No --min-semi-space-size: the young generation starts small and grows with the load, so an idle
// server holds only the heap it uses (docs/adr/053; it replaces ADR 017's 8 MB minimum).
// --max-semi-space-size=16: under the allocation rate of analytics V8 grew new space to 128 MB, with
// no CPU gained; 16 MB semi-spaces keep ~200 MB of RSS off at equal CPU (docs/adr/018).
// Plain JavaScript an older Node can parse: run by one (`node bin/snip.js` with the machine's own
// node), it says so in one line instead of failing on the `.ts` import with a stack.
const major = Number(process.versions.node.split('.')[0]);

if (major < 24) {
  process.stderr.write(
    `snip: Node.js ${process.versions.node} is too old (Snip needs 24); use \`npx snip …\` or \`npm start\`, which run the Node.js 24 pinned in package.json\n`,
  );
  process.exitCode = 1;
} else {
  // Compiled modules (TypeScript stripped) are kept on disk and reused while the source is the same:
  // a command then starts without compiling Snip's code again (NODE_COMPILE_CACHE picks the place).
  const { enableCompileCache } = await import('node:module');
  enableCompileCache?.();
  const { main } = await import('../src/main.ts');
  main(process.argv.slice(2)).then(
    (code) => {
      if (code !== 0) process.exitCode = code;
    },
    (error) => {
      process.stderr.write(`snip: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
