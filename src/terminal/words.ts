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

/**
 * A flag the grammar cannot read: one no command takes, a string flag without its value, a switch
 * given one (`--json=yes`). `flag` is as written (`--limt`, `-x`, `--no-limit`).
 */
export type FlagProblem =
  | { kind: 'unknown'; flag: string }
  | { kind: 'no-value'; flag: string; next?: string }
  | { kind: 'needless-value'; flag: string; value: string };

export interface Words {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  /** The negated flags given (`--no-group`, `--no-password`). */
  negated: ReadonlySet<string>;
  /** Each flag given that the grammar reads, by its name and as written: `inspect`, `--no-inspect`. */
  given: { name: string; written: string }[];
  /** What the grammar cannot read, in the order written; values are to be trusted only without any. */
  problems: FlagProblem[];
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

interface OptionToken {
  name: string;
  rawName: string;
  value?: string;
  inlineValue?: boolean;
}

/** What strict parsing would refuse in one flag, said as data rather than as parseArgs words it. */
function problemOf(token: OptionToken, flags: FlagTable): FlagProblem | undefined {
  const spec = Object.hasOwn(flags, token.name) ? flags[token.name] : undefined;
  const negation = token.rawName !== `--${token.name}` && token.rawName.startsWith('--no-');
  if (!spec || (negation && spec.type !== 'boolean')) return { kind: 'unknown', flag: token.rawName };
  if (spec.type === 'boolean') {
    return token.value === undefined
      ? undefined
      : { kind: 'needless-value', flag: token.rawName, value: token.value };
  }
  if (token.value === undefined) return { kind: 'no-value', flag: token.rawName };
  // `--limit --json`: the value forgotten, the next flag taken for it (`--limit=-1` says it is meant).
  if (!token.inlineValue && token.value.length > 1 && token.value.startsWith('-')) {
    return { kind: 'no-value', flag: token.rawName, next: token.value };
  }
  return undefined;
}

/**
 * The words as flags and positionals, and what in them the grammar cannot read. Parsed leniently and
 * checked here, so that each problem names its flag in data the caller can explain and suggest from.
 */
export function readWords(argv: readonly string[], grammar: Grammar): Words {
  const { values, positionals, tokens } = parseArgs({
    args: withoutNegated(argv, grammar),
    options: grammar.flags,
    allowPositionals: true,
    allowNegative: true,
    strict: false,
    tokens: true,
  });
  const negated = negatedFlags(argv, grammar);
  const given = [...negated].map((name) => ({ name, written: `--${name}` }));
  const problems: FlagProblem[] = [];
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const problem = problemOf(token, grammar.flags);
    if (problem) problems.push(problem);
    else given.push({ name: token.name, written: token.rawName });
  }
  return { values, positionals, negated, given, problems };
}
