import { createInspector } from './adapters/inspect/inspector.ts';
import { LocalLinkEvents } from './adapters/memory/link-events.ts';
import { MemoryWindowCounter } from './adapters/memory/window-counter.ts';
import { openStore } from './adapters/open-store.ts';
import type { SharedState } from './adapters/redis/shared-state.ts';
import type { Config } from './config.ts';
import { Refusal, UnavailableError } from './core/errors.ts';
import type { Inspector } from './core/ports/inspector.ts';
import type { KeyAuthenticator } from './core/ports/key-auth.ts';
import type { CreateLinkAs } from './core/ports/link-creator.ts';
import type { LinkEditor } from './core/ports/link-editor.ts';
import type { Store } from './core/ports/store.ts';
import { socialMatcher } from './core/social.ts';
import {
  type Command,
  hasFlag,
  InvalidRangeError,
  looseWords,
  type Negated,
  negatedFlags,
  parseWords,
  type Result,
  UsageError,
  type Values,
} from './features/accounts/operator-command.ts';
import { findCommand, GLOBAL_USAGE, usageOf } from './features/accounts/operator-commands.ts';
import { createLinkService } from './features/create/create-link.ts';
import { linkEditor } from './features/links/edit-link.ts';

/**
 * `npx snip …`: the operator commands of docs/api.md §6 (features/accounts/operator-commands.ts),
 * wired to the store, the link editor and Redis. Every command prints one object, as JSON with
 * --json, and answers --help with its own usage. Exit codes: 0 done, 1 refused, 2 a stats range it
 * cannot read, 64 usage error, 69 a service it needs cannot be reached.
 */

export interface Io {
  out: { write(text: string): unknown };
  err: { write(text: string): unknown };
  /** Where `account password` reads the password when --password is not given; process.stdin by default. */
  in?: NodeJS.ReadableStream & { isTTY?: boolean };
}

/** What tests put in place of the real thing. */
export interface CliDeps {
  /**
   * Inspects new targets of `link edit` and the rows of `link import`; by default the real,
   * SSRF-safe one (closed afterwards).
   */
  inspector?: Inspector;
}

const EXIT = { done: 0, refused: 1, invalidRange: 2, usage: 64, unavailable: 69 } as const;

/** With REDIS_URL, link changes are announced the way the servers (src/main.ts) hear them. */
async function openSharedState(config: Config): Promise<SharedState | undefined> {
  if (!config.redisUrl) return undefined;
  const { openRedisState } = await import('./adapters/redis/shared-state.ts');
  try {
    return await openRedisState(config.redisUrl, config.redisPrefix, config.storeTimeoutMs);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UnavailableError(
      `REDIS_URL is set but Redis cannot be reached (${reason}); nothing was changed`,
    );
  }
}

/** The inspector given, or the real one, made only when a target needs inspecting. */
function lazyInspector(config: Config, deps: CliDeps): Inspector {
  let created: Inspector | undefined;
  return (
    deps.inspector ?? {
      inspect: (url) => {
        created ??= createInspector({ allowPrivate: config.allowPrivateTargets });
        return created.inspect(url);
      },
      close: async () => created?.close(),
    }
  );
}

/** `link import --no-inspect`: every target passes unfetched, its title only what the file gives. */
const ACCEPT_UNFETCHED: Inspector = {
  inspect: async (url) => ({ ok: true, title: '', finalUrl: url.href, status: 200 }),
  close: async () => {},
};

/** The create service acts for an account directly (`createAs`); no key is ever presented to it. */
const NO_KEYS: KeyAuthenticator = {
  authenticate: async () => {
    throw new Refusal('301');
  },
};

/** The API's create service, acting for an account as `link import` does: no key, no hourly window. */
async function withLinkCreator<T>(
  store: Store,
  config: Config,
  deps: CliDeps,
  options: { inspect: boolean },
  use: (createAs: CreateLinkAs) => Promise<T>,
): Promise<T> {
  const inspector = options.inspect ? lazyInspector(config, deps) : ACCEPT_UNFETCHED;
  const service = createLinkService({
    store,
    keys: NO_KEYS,
    inspector,
    counter: new MemoryWindowCounter(),
    isSocial: socialMatcher(config.socialDomains),
    baseUrl: config.baseUrl,
  });
  try {
    return await use(service.createAs);
  } finally {
    // An injected inspector belongs to the caller.
    if (inspector !== deps.inspector) await inspector.close();
  }
}

/** The API's link editor; the real inspector is made only if a new target needs inspecting. */
async function withLinkEditor<T>(
  store: Store,
  config: Config,
  deps: CliDeps,
  use: (editor: LinkEditor) => Promise<T>,
): Promise<T> {
  const inspector = lazyInspector(config, deps);
  const shared = await openSharedState(config);
  const linkEvents = shared?.ports.linkEvents ?? new LocalLinkEvents();
  try {
    return await use(
      linkEditor({
        store,
        inspector,
        isSocial: socialMatcher(config.socialDomains),
        baseUrl: config.baseUrl,
        linkEvents,
        counter: new MemoryWindowCounter(),
      }),
    );
  } finally {
    if (inspector !== deps.inspector) await inspector.close();
    await linkEvents.close();
    await shared?.ports.demoLog.close();
    await shared?.close();
  }
}

function isParseError(error: unknown): error is Error {
  return (
    error instanceof TypeError && String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')
  );
}

function human(result: Result, command: Command): string {
  if (command.text) return command.text(result);
  if (Array.isArray(result.items) && command.line) {
    const items = result.items as Result[];
    return items.length === 0 ? '(none)\n' : `${items.map(command.line).join('\n')}\n`;
  }
  return `${Object.entries(result)
    .map(
      ([key, value]) =>
        `${key}: ${Array.isArray(value) ? value.map(word).join(', ') || '(none)' : String(value)}`,
    )
    .join('\n')}\n`;
}

/** An item of a list as a human reads it: objects (a link's rules) as JSON. */
function word(item: unknown): string {
  return typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item);
}

/** The flags given that the command does not take. */
function strayFlags(values: Values, negated: ReadonlySet<Negated>, command: Command): string[] {
  const given: string[] = Object.keys(values).filter((key) => key !== 'json' && key !== 'help');
  given.push(...negated);
  return given
    .filter((flag) => !(command.flags as readonly string[]).includes(flag))
    .map((flag) => `--${flag}`);
}

/** The usage that fits the words given, even words that do not parse. */
function usageFor(argv: readonly string[]): string {
  try {
    return usageOf(findCommand(looseWords(argv)));
  } catch {
    return GLOBAL_USAGE;
  }
}

/** Runs one operator command; returns the exit code (0 done, 1 refused, 2 range, 64 usage, 69 unavailable). */
export async function runCli(
  argv: readonly string[],
  config: Config,
  io: Io,
  deps: CliDeps = {},
): Promise<number> {
  let json = hasFlag(argv, '--json');
  let store: Store | undefined;
  try {
    const { values, positionals } = parseWords(argv);
    json = values.json === true;
    const found = findCommand(positionals);
    if (values.help || positionals.length === 0) {
      io.out.write(`${usageOf(found)}\n`);
      return EXIT.done;
    }
    if (found?.kind !== 'command') throw new UsageError(`"snip ${positionals.join(' ')}" is not a command`);
    const { name, command, args } = found;
    if (!command.run) throw new UsageError(`the process runs it: npx snip ${name}`);
    if (args.length !== command.args) {
      throw new UsageError(`expected ${command.args} argument(s), got ${args.length}`);
    }
    const negated = negatedFlags(argv);
    const stray = strayFlags(values, negated, command);
    if (stray.length > 0) throw new UsageError(`snip ${name} does not take ${stray.join(', ')}`);
    const opened = await openStore(config.databaseUrl, { prepare: command.prepare ?? true });
    store = opened;
    const result = await command.run({
      args,
      values,
      negated,
      store: opened,
      baseUrl: config.baseUrl,
      retentionDays: config.analyticsRetentionDays,
      io: { out: io.out, err: io.err, input: () => io.in ?? process.stdin },
      withLinkEditor: (use) => withLinkEditor(opened, config, deps, use),
      withLinkCreator: (options, use) => withLinkCreator(opened, config, deps, options, use),
    });
    io.out.write(json ? `${JSON.stringify(result)}\n` : human(result, command));
    return EXIT.done;
  } catch (error) {
    return report(error, argv, json, io);
  } finally {
    await store?.close();
  }
}

/** A refusal, a usage error or an unreachable service as the operator reads it; anything else is a fault. */
function report(error: unknown, argv: readonly string[], json: boolean, io: Io): number {
  if (error instanceof Refusal) {
    const existing = error.facts.existingCode;
    const message = existing ? `${error.message} (the link ${existing} has it)` : error.message;
    if (json) {
      const body = { error: message, code: error.code, ...(existing ? { existing_code: existing } : {}) };
      io.out.write(`${JSON.stringify(body)}\n`);
    }
    io.err.write(`snip: ${message} [${error.code}]\n`);
    return EXIT.refused;
  }
  if (error instanceof InvalidRangeError) {
    if (json) io.out.write(`${JSON.stringify({ error: error.message, flag: error.flag })}\n`);
    io.err.write(`snip: ${error.message}\n`);
    return EXIT.invalidRange;
  }
  if (error instanceof UnavailableError) {
    if (json) io.out.write(`${JSON.stringify({ error: error.message })}\n`);
    io.err.write(`snip: ${error.message}\n`);
    return EXIT.unavailable;
  }
  if (error instanceof UsageError || isParseError(error)) {
    if (json) io.out.write(`${JSON.stringify({ error: error.message })}\n`);
    io.err.write(`snip: ${error.message}\n${usageFor(argv)}\n`);
    return EXIT.usage;
  }
  throw error;
}
