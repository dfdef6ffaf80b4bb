import { parseArgs } from 'node:util';
import type { CreateLinkAs } from '../../core/ports/link-creator.ts';
import type { LinkEditor } from '../../core/ports/link-editor.ts';
import type { Store } from '../../core/ports/store.ts';

/**
 * What an operator command is (docs/api.md §6): its usage, the flags it takes, and what it does with
 * the store. The process wires the rest (src/cli.ts).
 */

export const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  'api-access': { type: 'boolean' },
  'url-quota': { type: 'string' },
  'rate-limit': { type: 'string' },
  plan: { type: 'string' },
  password: { type: 'string' },
  'api-id': { type: 'string' },
  group: { type: 'string' },
  limit: { type: 'string' },
  url: { type: 'string' },
  title: { type: 'string' },
  tags: { type: 'string' },
  'expires-at': { type: 'string' },
  'max-clicks': { type: 'string' },
  rules: { type: 'string' },
  format: { type: 'string' },
  inspect: { type: 'boolean' },
  from: { type: 'string' },
  to: { type: 'string' },
  interval: { type: 'string' },
} as const;

/**
 * Flags that clear what a string flag sets (`--no-group`, `--no-password`). parseArgs negates only
 * booleans, so these are taken out of the words before they parse.
 */
export const NEGATED = ['no-group', 'no-password'] as const;
export type Negated = (typeof NEGATED)[number];

export type Flag = keyof typeof OPTIONS | Negated;

/** The words before the first `--`, where a flag can still be. */
function flagsPart(argv: readonly string[]): readonly string[] {
  const end = argv.indexOf('--');
  return end < 0 ? argv : argv.slice(0, end);
}

export function hasFlag(argv: readonly string[], flag: string): boolean {
  return flagsPart(argv).includes(flag);
}

const NEGATED_WORDS: readonly string[] = NEGATED.map((flag) => `--${flag}`);

function withoutNegated(argv: readonly string[]): string[] {
  const flags = flagsPart(argv);
  return [...flags.filter((word) => !NEGATED_WORDS.includes(word)), ...argv.slice(flags.length)];
}

/** The negated flags among the words. */
export function negatedFlags(argv: readonly string[]): ReadonlySet<Negated> {
  return new Set(NEGATED.filter((flag) => hasFlag(argv, `--${flag}`)));
}

/** The words as flags and positionals; throws ERR_PARSE_ARGS_* on a flag it does not know. */
export function parseWords(argv: readonly string[]) {
  return parseArgs({
    args: withoutNegated(argv),
    options: OPTIONS,
    allowPositionals: true,
    allowNegative: true,
    strict: true,
  });
}

/** The positionals of words that may not parse, to find which command they meant. */
export function looseWords(argv: readonly string[]): string[] {
  return parseArgs({ args: withoutNegated(argv), options: OPTIONS, allowPositionals: true, strict: false })
    .positionals;
}

export type Values = ReturnType<typeof parseWords>['values'];

/** The words do not make a command: the usage is shown with the message. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A range the stats cannot be read over (exit 2): the flag it names and why. */
export class InvalidRangeError extends Error {
  override name = 'InvalidRangeError';
  readonly flag: string;
  constructor(flag: string, reason: string) {
    super(`--${flag}: ${reason}`);
    this.flag = flag;
  }
}

export interface CommandIo {
  /** Where lines go while a command runs (the result is printed after it). */
  out: { write(text: string): unknown };
  err: { write(text: string): unknown };
  /** Standard input (a pipe or a terminal), opened only when a command reads it. */
  input(): NodeJS.ReadableStream & { isTTY?: boolean };
}

export interface CommandContext {
  args: string[];
  values: Values;
  /** The negated flags given (`--no-group`, `--no-password`). */
  negated: ReadonlySet<Negated>;
  store: Store;
  baseUrl: URL;
  /** ANALYTICS_RETENTION_DAYS: how far back hourly stats reach. */
  retentionDays: number;
  io: CommandIo;
  /** Runs `use` with the link editor of the API, announcing changes as the servers hear them. */
  withLinkEditor<T>(use: (editor: LinkEditor) => Promise<T>): Promise<T>;
  /**
   * Runs `use` with the create service of the API acting for an account without a key or window;
   * `inspect: false` accepts every target without fetching it.
   */
  withLinkCreator<T>(options: { inspect: boolean }, use: (createAs: CreateLinkAs) => Promise<T>): Promise<T>;
}

export type Result = Record<string, unknown>;

export interface Command {
  /** Arguments and flags, after `snip <name>`. */
  synopsis: string;
  about: string;
  /** Lines of help after the synopsis: what the flags mean, what else to know. */
  details?: string;
  /** Flags besides --json and --help. */
  flags: readonly Flag[];
  /** How many arguments it takes. */
  args: number;
  /** false: the store is opened without migrating (migrate does that itself). */
  prepare?: false;
  /** One line per item of a list result, for people. */
  line?: (item: Result) => string;
  /** The whole result for people, when `key: value` lines do not fit it. */
  text?: (result: Result) => string;
  /** Absent for `serve`, which the process runs itself. */
  run?: (ctx: CommandContext) => Promise<Result>;
}

export function count(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} takes a whole number, got "${value}"`);
  return Number(value);
}

/** Fields of one line, tab-separated, a dash for none. */
export const tab = (...fields: unknown[]) => fields.map((field) => String(field ?? '-')).join('\t');
