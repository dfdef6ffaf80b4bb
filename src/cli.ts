import { existsSync } from 'node:fs';
import type { Config } from './config.ts';
import type { Inspector } from './core/ports/inspector.ts';
import type { PortName } from './core/ports/store.ts';
import type { TxtResolver } from './core/ports/txt-resolver.ts';
import { FEATURES } from './features.ts';
import type { Feature, Given } from './kernel/feature.ts';
import { BASE_FLAGS, type Command, type FlagTable, UsageError } from './terminal/command.ts';
import { commandTable } from './terminal/command-table.ts';
import { type Io, runCommand } from './terminal/run-command.ts';

export type { Io } from './terminal/run-command.ts';

/**
 * `npx snip …`: the operator commands of docs/api.md §6, each declared by its feature in the
 * registry without its code. A command loads its own code, opens the store and the kernel, and
 * builds the services it asks for through the same descriptors as the server. Every command prints
 * one object, as JSON with --json, and answers --help with its own usage. Exit codes: 0 done,
 * 1 refused, 2 a stats range it cannot read, 64 usage error, 69 a service it needs cannot be reached.
 */

/** What tests put in place of the real thing. */
export interface CliDeps {
  /** Inspects new targets of `link edit` and the rows of `link import`; by default the real, SSRF-safe one. */
  inspector?: Inspector;
  /** Verifies domains by their TXT record; the system resolver by default. */
  resolveTxt?: TxtResolver;
}

const FLAGS: FlagTable = Object.assign(
  {},
  BASE_FLAGS,
  ...FEATURES.map((feature) => feature.cli?.flags ?? {}),
);
const NEGATED = FEATURES.flatMap((feature) => feature.cli?.negated ?? []);
const COMMANDS: Record<string, Command<FlagTable, Given<PortName>>> = Object.assign(
  {},
  ...FEATURES.map((feature) => feature.cli?.commands ?? {}),
);
const TABLE = commandTable(COMMANDS);
/** Each command's feature, whose ports it is handed. */
const FEATURE_OF = new Map<Command<FlagTable, Given<PortName>>, Feature>(
  FEATURES.flatMap((feature) =>
    Object.values(feature.cli?.commands ?? {}).map((command) => [command, feature]),
  ),
);

/** The embedded default store is never made by a command that was not asked to (a mistyped directory). */
function checkStoreExists(config: Config, create: boolean | undefined): void {
  if (!config.storeIsDefault || create) return;
  const path = config.databaseUrl.slice('sqlite:'.length);
  if (existsSync(path)) return;
  throw new UsageError(
    `there is no store at ${path} (DATABASE_URL is not set); add --create to create an empty one there, or set DATABASE_URL to the store the server uses`,
  );
}

/** Runs one operator command; returns the exit code (0 done, 1 refused, 2 range, 64 usage, 69 unavailable). */
export async function runCli(
  argv: readonly string[],
  config: Config,
  io: Io,
  deps: CliDeps = {},
): Promise<number> {
  return runCommand(
    argv,
    {
      table: TABLE,
      grammar: { flags: FLAGS, negated: NEGATED },
      open: async (command, values) => {
        checkStoreExists(config, values.create);
        // Loaded only now: `snip --help` and a refused command line load neither.
        const [{ openStore }, { openKernel }] = await Promise.all([
          import('./adapters/open-store.ts'),
          import('./kernel/kernel.ts'),
        ]);
        const store = await openStore(config.databaseUrl, {
          prepare: command.prepare ?? true,
          threads: false,
        });
        const kernel = openKernel(config, { ...deps, store }, FEATURES, 'command');
        kernel.log.bind({ error: ({ err }, message) => io.err.write(`snip: ${message}: ${String(err)}\n`) });
        const feature = FEATURE_OF.get(command);
        return {
          deps: { kernel, ports: kernel.portsOf(feature ?? { ports: [] }) },
          close: async () => {
            await kernel.close();
            await store.close();
          },
        };
      },
    },
    io,
  );
}
