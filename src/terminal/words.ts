import { parseArgs } from 'node:util';
import type { FlagTable } from './command.ts';

/**
 * The words of a command line as flags and positionals. Flags that clear what a string flag sets
 * (`--no-group`, `--no-password`) are taken out before the words parse: parseArgs negates only
 * booleans.
 */
export interface Grammar {
  flags: FlagTable;
  negated: readonly string[];
}

/** The words before the first `--`, where a flag can still be. */
function flagsPart(argv: readonly string[]): readonly string[] {
  const end = argv.indexOf('--');
  return end < 0 ? argv : argv.slice(0, end);
}

export function hasFlag(argv: readonly string[], flag: string): boolean {
  return flagsPart(argv).includes(flag);
}

function withoutNegated(argv: readonly string[], grammar: Grammar): string[] {
  const flags = flagsPart(argv);
  const negated = grammar.negated.map((flag) => `--${flag}`);
  return [...flags.filter((word) => !negated.includes(word)), ...argv.slice(flags.length)];
}

/** The negated flags among the words. */
export function negatedFlags(argv: readonly string[], grammar: Grammar): ReadonlySet<string> {
  return new Set(grammar.negated.filter((flag) => hasFlag(argv, `--${flag}`)));
}

/** The words as flags and positionals; throws ERR_PARSE_ARGS_* on a flag it does not know. */
export function parseWords(argv: readonly string[], grammar: Grammar) {
  return parseArgs({
    args: withoutNegated(argv, grammar),
    options: grammar.flags,
    allowPositionals: true,
    allowNegative: true,
    strict: true,
  });
}

/** The positionals of words that may not parse, to find which command they meant. */
export function looseWords(argv: readonly string[], grammar: Grammar): string[] {
  return parseArgs({
    args: withoutNegated(argv, grammar),
    options: grammar.flags,
    allowPositionals: true,
    strict: false,
  }).positionals;
}

export function isParseError(error: unknown): error is Error {
  return (
    error instanceof TypeError && String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')
  );
}
