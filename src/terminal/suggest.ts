import { type CommandUsage, type FlagTable, UsageError } from './command.ts';
import type { CommandTable, FoundCommand } from './command-table.ts';
import { nearest } from './nearest.ts';
import type { FlagProblem, Grammar } from './words.ts';

/**
 * Words that make no command, answered in plain words with what they probably meant: the nearest
 * name by edit distance, offered only when it is near enough to be a slip of the keyboard rather
 * than another word, and the one-line usage of what it names.
 */

/**
 * A usage error that knows the usage to show after it (none: `snip --help` is named instead) and,
 * when there is one, what the operator probably meant.
 */
export class Misuse extends UsageError {
  readonly usage: string | undefined;
  readonly suggestion: string | undefined;
  constructor(message: string, usage?: string, suggestion?: string) {
    super(message);
    this.usage = usage;
    this.suggestion = suggestion;
  }
}

const LISTS_COMMANDS = 'snip --help lists the commands';

/** The flags a command takes as they may be written (ties go to the first): its own, then --json, --help. */
function flagsTaken(command: CommandUsage | undefined, grammar: Grammar): string[] {
  const own = command ? command.flags : [...Object.keys(grammar.flags), ...grammar.negated];
  const switches = own.filter(
    (flag) => grammar.flags[flag]?.type === 'boolean' && flag !== 'json' && flag !== 'help',
  );
  return [...own, ...switches.map((flag) => `no-${flag}`), 'json', 'help'];
}

/** A flag the command cannot read, said plainly with the flag it probably meant. */
export function flagMisuse<F extends FlagTable, D>(
  problem: FlagProblem,
  found: FoundCommand<F, D>,
  table: CommandTable<F, D>,
  grammar: Grammar,
): Misuse {
  const usage = found?.kind === 'command' ? table.oneLine(found.name) : found && table.usageOf(found);
  const { flag } = problem;
  if (problem.kind === 'no-value') {
    const next = problem.next;
    const message = next
      ? `${flag} needs a value before ${next} (write ${flag}=${next} if that is its value)`
      : `${flag} needs a value`;
    return new Misuse(message, usage);
  }
  if (problem.kind === 'needless-value') {
    return new Misuse(`${flag} takes no value, got "${problem.value}"`, usage);
  }
  const command = found?.kind === 'command' ? found : undefined;
  const refusal = command ? `snip ${command.name} does not take ${flag}` : `no command takes ${flag}`;
  const meant = nearest(flag.replace(/^-+/, ''), flagsTaken(command?.command, grammar));
  if (meant) return new Misuse(`${refusal}; did you mean --${meant.name}?`, usage, `--${meant.name}`);
  return new Misuse(usage ? refusal : `${refusal}; ${LISTS_COMMANDS}`, usage);
}

/** Words that name no command: the command or group they most likely meant, and its usage. */
export function unknownCommand<F extends FlagTable, D>(
  positionals: readonly string[],
  table: CommandTable<F, D>,
): Misuse {
  const guess = table.guess(positionals);
  if (!guess) return new Misuse(`"snip ${positionals.join(' ')}" is not a command; ${LISTS_COMMANDS}`);
  if (guess.kind === 'group') {
    const typed = `snip ${positionals.slice(0, 2).join(' ')}`;
    const group = `snip ${guess.group}`;
    const usage = table.usageOf({ kind: 'group', group: guess.group });
    return new Misuse(
      `"${typed}" is not a command; did you mean one of the "${group}" commands?`,
      usage,
      group,
    );
  }
  const typed = `snip ${positionals.slice(0, guess.name.split(' ').length).join(' ')}`;
  const meant = `snip ${guess.name}`;
  return new Misuse(
    `"${typed}" is not a command; did you mean "${meant}"?`,
    table.oneLine(guess.name),
    meant,
  );
}

/** `snip link list takes 1 argument (<email>); got none`. */
export function wrongCount(name: string, command: CommandUsage, args: readonly string[]): string {
  // The arguments are the <words> of the synopsis before its first flag.
  const names = command.synopsis.split('[')[0]?.match(/<[^>]+>/g) ?? [];
  const plural = command.args === 1 ? '' : 's';
  const named = names.length === command.args ? ` (${names.join(' ')})` : '';
  const wanted =
    command.args === 0 ? 'takes no arguments' : `takes ${command.args} argument${plural}${named}`;
  const got = args.length === 0 ? 'none' : `${args.length}: ${args.join(' ')}`;
  return `snip ${name} ${wanted}; got ${got}`;
}
