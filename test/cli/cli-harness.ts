import { Readable } from 'node:stream';
import { openStore } from '../../src/adapters/open-store.ts';
import { type CliDeps, runCli } from '../../src/cli.ts';
import { loadConfig } from '../../src/config.ts';
import type { InspectOutcome, Inspector } from '../../src/core/ports/inspector.ts';
import type { Store } from '../../src/core/ports/store.ts';

/** What the CLI tests share: one command run in this process, a store opened beside it, an inspector. */

export interface Run {
  code: number;
  json: Record<string, unknown>;
  out: string;
  err: string;
}

export interface RunOptions extends CliDeps {
  /** What the command reads from standard input. */
  stdin?: string;
  /** Variables over the test's own. */
  env?: Record<string, string>;
}

/** Runs one command with the environment `env`; `--json` output is parsed into `json`. */
export async function runSnip(
  env: Record<string, string>,
  options: RunOptions,
  argv: readonly string[],
): Promise<Run> {
  let out = '';
  let err = '';
  const code = await runCli(
    argv,
    loadConfig({ ...env, ...options.env }),
    {
      out: { write: (text: string) => (out += text) },
      err: { write: (text: string) => (err += text) },
      in: Readable.from([options.stdin ?? '']),
    },
    options,
  );
  const json = argv.includes('--json') && out.trim() ? JSON.parse(out) : {};
  return { code, json, out, err };
}

export async function withStoreAt<T>(databaseUrl: string, use: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(databaseUrl, { prepare: true });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

/**
 * An inspector that never fetches: it answers `answer` (an outcome, or one per URL; by default a
 * page titled "Page title" at the URL asked) and records what it was asked.
 */
export class FakeInspector implements Inspector {
  readonly asked: string[] = [];
  readonly #answer: (url: URL) => InspectOutcome;
  constructor(
    answer: InspectOutcome | ((url: URL) => InspectOutcome) = (url) => ({
      ok: true,
      title: 'Page title',
      finalUrl: url.href,
      status: 200,
    }),
  ) {
    this.#answer = typeof answer === 'function' ? answer : () => answer;
  }
  async inspect(url: URL): Promise<InspectOutcome> {
    this.asked.push(url.href);
    return this.#answer(url);
  }
  async close(): Promise<void> {}
}
