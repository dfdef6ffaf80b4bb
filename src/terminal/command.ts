/**
 * What a command of `npx snip` is (docs/api.md §6): its usage, the flags it takes, and what it does
 * with what the process gives it. Each feature declares its own commands and flags; src/cli.ts puts
 * them in one table and runs them (run-command.ts).
 */

export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
}

/** The flags a feature's commands take, as node:util parseArgs reads them. */
export type FlagTable = Readonly<Record<string, FlagSpec>>;

/** The flags every command takes. */
export const BASE_FLAGS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  /** Creates the embedded store where none is yet (DATABASE_URL unset). */
  create: { type: 'boolean' },
} as const;

/** What the words gave each flag of a table. */
export type FlagValues<F extends FlagTable> = {
  -readonly [K in keyof F]?: F[K]['type'] extends 'boolean' ? boolean : string;
};

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

/** What a command runs with: its words, and what the process gives its feature (`D`). */
export type CommandContext<F extends FlagTable, D> = D & {
  args: string[];
  values: FlagValues<F & typeof BASE_FLAGS>;
  /** The negated flags given (`--no-group`, `--no-password`). */
  negated: ReadonlySet<string>;
  io: CommandIo;
};

export type Result = Record<string, unknown>;

/** What `snip <name> --help` shows and what the words are checked against: none of the command's code. */
export interface CommandUsage {
  /** Arguments and flags, after `snip <name>`. */
  synopsis: string;
  about: string;
  /** Lines of help after the synopsis: what the flags mean, what else to know. */
  details?: string;
  /** Flags besides --json and --help: names of the feature's table, or of its negated flags. */
  flags: readonly string[];
  /** How many arguments it takes. */
  args: number;
  /** false: the store is opened without migrating (migrate does that itself). */
  prepare?: false;
}

/** A command's code, loaded only when it runs. */
export interface CommandCode<F extends FlagTable = FlagTable, D = unknown> {
  /** One line per item of a list result, for people. */
  line?: (item: Result) => string;
  /** The whole result for people, when `key: value` lines do not fit it. */
  text?: (result: Result) => string;
  /** A property, not a method: code that needs more than its feature gives (a port it did not declare) does not fit. */
  run: (ctx: CommandContext<F, D>) => Promise<Result>;
}

/** A command as the table holds it: its usage, and its code behind an `import()`. */
export interface Command<F extends FlagTable = FlagTable, D = unknown> extends CommandUsage {
  /** Absent for `serve`, which the process runs itself. */
  load?: () => Promise<CommandCode<F, D>>;
}

/** A feature's commands: each usage joined with its code, the code module imported on first use. */
export function lazyCommands<F extends FlagTable, D>(
  usages: Readonly<Record<string, CommandUsage>>,
  load: () => Promise<Readonly<Record<string, CommandCode<F, D>>>>,
): Record<string, Command<F, D>> {
  const commands: Record<string, Command<F, D>> = {};
  for (const [name, usage] of Object.entries(usages)) {
    commands[name] = {
      ...usage,
      load: async () => {
        const code = (await load())[name];
        if (!code) throw new Error(`the code of "snip ${name}" is missing`);
        return code;
      },
    };
  }
  return commands;
}

/**
 * Commands whose code runs with what `deps` makes of what the process gives (`P`): a feature's
 * commands take the services they name, built from the kernel the process opened.
 */
export function withDeps<F extends FlagTable, D, P>(
  commands: Readonly<Record<string, CommandCode<F, D>>>,
  deps: (given: P) => Promise<NoInfer<D>>,
): Record<string, CommandCode<F, P>> {
  const joined: Record<string, CommandCode<F, P>> = {};
  for (const [name, code] of Object.entries(commands)) {
    joined[name] = {
      line: code.line,
      text: code.text,
      run: async (ctx) => code.run({ ...ctx, ...(await deps(ctx)) } as CommandContext<F, D>),
    };
  }
  return joined;
}

export function count(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} takes a whole number, got "${value}"`);
  return Number(value);
}

/** Fields of one line, tab-separated, a dash for none. */
export const tab = (...fields: unknown[]) => fields.map((field) => String(field ?? '-')).join('\t');
