import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/adapters/open-store.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';

/**
 * `npm run lint:openapi`: builds the app on a throwaway SQLite store, takes the /openapi.json it
 * serves with the default configuration, and lints it with `redocly lint` and the recommended rules
 * (redocly.yaml). The gate is 0 errors and 0 warnings: redocly itself fails only on errors, so its
 * JSON report is read and every problem printed where it is in the document.
 */

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: Array<{ pointer?: string }>;
}

interface Report {
  totals: { errors: number; warnings: number };
  problems: Problem[];
}

async function servedDocument(dir: string): Promise<string> {
  const config = loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'snip.db')}` });
  const store = await openStore(config.databaseUrl, { prepare: true });
  const app = await buildApp(config, { store, logger: false });
  try {
    const response = await app.inject({ method: 'GET', url: '/openapi.json' });
    if (response.statusCode !== 200) throw new Error(`GET /openapi.json answered ${response.statusCode}`);
    return response.body;
  } finally {
    await app.close();
    await store.close();
  }
}

function lint(file: string): Report {
  const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
  const rules = join(import.meta.dirname, '..', 'redocly.yaml');
  const run = spawnSync(process.execPath, [cli, 'lint', file, '--config', rules, '--format', 'json'], {
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  try {
    return JSON.parse(run.stdout) as Report;
  } catch {
    process.stderr.write(run.stderr);
    throw new Error(`redocly lint did not report (exit ${run.status})`);
  }
}

const dir = await mkdtemp(join(tmpdir(), 'snip-openapi-'));
try {
  const file = join(dir, 'openapi.json');
  await writeFile(file, await servedDocument(dir));
  const { totals, problems } = lint(file);
  for (const problem of problems) {
    const where = problem.location.map((location) => location.pointer ?? '?').join(', ');
    console.log(`${problem.severity.padEnd(5)} ${problem.ruleId}  ${where}\n      ${problem.message}`);
  }
  console.log(
    `/openapi.json: ${totals.errors} errors, ${totals.warnings} warnings (redocly lint, recommended)`,
  );
  if (totals.errors > 0 || totals.warnings > 0) process.exitCode = 1;
} finally {
  await rm(dir, { recursive: true, force: true });
}
