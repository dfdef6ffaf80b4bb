import { Refusal, UnavailableError } from '../core/errors.ts';
import {
  BASE_FLAGS,
  type Command,
  type CommandCode,
  type FlagTable,
  type FlagValues,
  InvalidRangeError,
  type Result,
  UsageError,
} from './command.ts';
import type { CommandTable, FoundCommand } from './command-table.ts';
import { flagMisuse, Misuse, unknownCommand, wrongCount } from './suggest.ts';
import { type Grammar, hasFlag, readWords, type Words } from './words.ts';

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
  open(
    command: Command<F, D>,
    values: FlagValues<typeof BASE_FLAGS>,
  ): Promise<{ deps: D; close(): Promise<void> }>;
}

/** An item of a list as a human reads it: objects (a link's rules) as JSON. */
function word(item: unknown): string {
  return typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item);
}

function human<F extends FlagTable, D>(result: Result, command: CommandCode<F, D>): string {
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

/** The command the words name with its flags and arguments checked, or what they probably meant. */
function checked<F extends FlagTable, D>(words: Words, found: FoundCommand<F, D>, line: CommandLine<F, D>) {
  const [problem] = words.problems;
  if (found?.kind !== 'command') {
    if (words.positionals.length === 0 && problem) throw flagMisuse(problem, found, line.table, line.grammar);
    if (found?.kind === 'group' && words.positionals.length === 1) {
      throw new Misuse(`"snip ${found.group}" is not a command`, line.table.usageOf(found));
    }
    throw unknownCommand(words.positionals, line.table);
  }
  const { name, command, args } = found;
  const stray = words.given.find((flag) => !(flag.name in BASE_FLAGS) && !command.flags.includes(flag.name));
  const misread = problem ?? (stray && { kind: 'unknown' as const, flag: stray.written });
  if (misread) throw flagMisuse(misread, found, line.table, line.grammar);
  const load = command.load;
  if (!load) throw new Misuse(`the process runs it: npx snip ${name}`, line.table.oneLine(name));
  if (args.length !== command.args) {
    throw new Misuse(wrongCount(name, command, args), line.table.oneLine(name));
  }
  return { name, command, args, load };
}

export async function runCommand<F extends FlagTable, D>(
  argv: readonly string[],
  line: CommandLine<F, D>,
  io: Io,
): Promise<number> {
  const { table, grammar } = line;
  const words = readWords(argv, grammar);
  const { values, positionals, negated } = words;
  // Words that do not read may have taken --json for a value: the operator still asked for JSON.
  const json = words.problems.length > 0 ? hasFlag(argv, '--json') : values.json === true;
  const found = table.find(positionals);
  let opened: { close(): Promise<void> } | undefined;
  try {
    if (words.problems.length === 0 && (values.help || positionals.length === 0)) {
      io.out.write(`${table.usageOf(found)}\n`);
      return EXIT.done;
    }
    const { command, args, load } = checked(words, found, line);
    const code = await load();
    const { deps, close } = await line.open(command, values);
    opened = { close };
    const result = await code.run({
      ...deps,
      args,
      // Read by the grammar, which holds every feature's table of flags, and checked: F's among them.
      values: values as FlagValues<F & typeof BASE_FLAGS>,
      negated,
      io: { out: io.out, err: io.err, input: () => io.in ?? process.stdin },
    });
    io.out.write(json ? `${JSON.stringify(result)}\n` : human(result, code));
    return EXIT.done;
  } catch (error) {
    const usage = found?.kind === 'command' ? table.oneLine(found.name) : found && table.usageOf(found);
    return report(error, json, io, usage);
  } finally {
    await opened?.close();
  }
}

/** A refusal, a usage error or an unreachable service as the operator reads it; anything else is a fault. */
function report(error: unknown, json: boolean, io: Io, usage: string | undefined): number {
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
  if (error instanceof UsageError) {
    // A command's own usage error (`--limit takes a whole number`) is followed by its one-line usage.
    const shown = error instanceof Misuse ? error.usage : usage;
    const suggestion = error instanceof Misuse ? error.suggestion : undefined;
    if (json)
      io.out.write(`${JSON.stringify({ error: error.message, ...(suggestion ? { suggestion } : {}) })}\n`);
    io.err.write(`snip: ${error.message}\n${shown ? `${shown}\n` : ''}`);
    return EXIT.usage;
  }
  throw error;
}
