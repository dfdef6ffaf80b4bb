import { Refusal, UnavailableError } from '../core/errors.ts';
import {
  type BASE_FLAGS,
  type Command,
  type FlagTable,
  type FlagValues,
  InvalidRangeError,
  type Result,
  UsageError,
} from './command.ts';
import type { CommandTable } from './command-table.ts';
import { type Grammar, hasFlag, isParseError, looseWords, negatedFlags, parseWords } from './words.ts';

/**
 * Runs one command line: finds the command, checks its words, runs it with what the process opens
 * for it, and prints one object (JSON with --json). Exit codes: 0 done, 1 refused, 2 a stats range
 * it cannot read, 64 usage error, 69 a service it needs cannot be reached.
 */

export const EXIT = { done: 0, refused: 1, invalidRange: 2, usage: 64, unavailable: 69 } as const;

export interface Io {
  out: { write(text: string): unknown };
  err: { write(text: string): unknown };
  /** Where `account password` reads the password when --password is not given; process.stdin by default. */
  in?: NodeJS.ReadableStream & { isTTY?: boolean };
}

export interface CommandLine<F extends FlagTable, D> {
  table: CommandTable<F, D>;
  grammar: Grammar;
  /** What a command runs with, opened for it and closed after it. */
  open(command: Command<F, D>): Promise<{ deps: D; close(): Promise<void> }>;
}

/** An item of a list as a human reads it: objects (a link's rules) as JSON. */
function word(item: unknown): string {
  return typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item);
}

function human<F extends FlagTable, D>(result: Result, command: Command<F, D>): string {
  if (command.text) return command.text(result);
  if (Array.isArray(result.items) && command.line) {
    const items = result.items as Result[];
    return items.length === 0 ? '(none)\n' : `${items.map(command.line).join('\n')}\n`;
  }
  return `${Object.entries(result)
    .map(
      ([key, value]) =>
        `${key}: ${Array.isArray(value) ? value.map(word).join(', ') || '(none)' : word(value)}`,
    )
    .join('\n')}\n`;
}

/** The flags given that the command does not take. */
function strayFlags(values: object, negated: ReadonlySet<string>, taken: readonly string[]): string[] {
  const given: string[] = Object.keys(values).filter((key) => key !== 'json' && key !== 'help');
  given.push(...negated);
  return given.filter((flag) => !taken.includes(flag)).map((flag) => `--${flag}`);
}

export async function runCommand<F extends FlagTable, D>(
  argv: readonly string[],
  line: CommandLine<F, D>,
  io: Io,
): Promise<number> {
  const { table, grammar } = line;
  let json = hasFlag(argv, '--json');
  let opened: { close(): Promise<void> } | undefined;
  try {
    const { values, positionals } = parseWords(argv, grammar);
    json = values.json === true;
    const found = table.find(positionals);
    if (values.help || positionals.length === 0) {
      io.out.write(`${table.usageOf(found)}\n`);
      return EXIT.done;
    }
    if (found?.kind !== 'command') throw new UsageError(`"snip ${positionals.join(' ')}" is not a command`);
    const { name, command, args } = found;
    if (!command.run) throw new UsageError(`the process runs it: npx snip ${name}`);
    if (args.length !== command.args) {
      throw new UsageError(`expected ${command.args} argument(s), got ${args.length}`);
    }
    const negated = negatedFlags(argv, grammar);
    const stray = strayFlags(values, negated, command.flags);
    if (stray.length > 0) throw new UsageError(`snip ${name} does not take ${stray.join(', ')}`);
    const { deps, close } = await line.open(command);
    opened = { close };
    const result = await command.run({
      ...deps,
      args,
      // Read by the grammar, which holds every feature's table of flags: F's among them.
      values: values as FlagValues<F & typeof BASE_FLAGS>,
      negated,
      io: { out: io.out, err: io.err, input: () => io.in ?? process.stdin },
    });
    io.out.write(json ? `${JSON.stringify(result)}\n` : human(result, command));
    return EXIT.done;
  } catch (error) {
    return report(error, argv, json, io, line);
  } finally {
    await opened?.close();
  }
}

/** The usage that fits the words given, even words that do not parse. */
function usageFor<F extends FlagTable, D>(argv: readonly string[], line: CommandLine<F, D>): string {
  try {
    return line.table.usageOf(line.table.find(looseWords(argv, line.grammar)));
  } catch {
    return line.table.globalUsage;
  }
}

/** A refusal, a usage error or an unreachable service as the operator reads it; anything else is a fault. */
function report<F extends FlagTable, D>(
  error: unknown,
  argv: readonly string[],
  json: boolean,
  io: Io,
  line: CommandLine<F, D>,
): number {
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
    io.err.write(`snip: ${error.message}\n${usageFor(argv, line)}\n`);
    return EXIT.usage;
  }
  throw error;
}
