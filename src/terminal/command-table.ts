import type { Command, FlagTable } from './command.ts';
import { type Nearest, nearest } from './nearest.ts';

/** Every command by name (`migrate`, `link edit`), in the order the usage lists them. */
export type Commands<F extends FlagTable, D> = Readonly<Record<string, Command<F, D>>>;

export type FoundCommand<F extends FlagTable, D> =
  | { kind: 'command'; name: string; command: Command<F, D>; args: string[] }
  | { kind: 'group'; group: string }
  | undefined;

/** What mistyped words probably meant: a command (`link list`) or a group of them (`link`). */
export type Guess = { kind: 'command'; name: string } | { kind: 'group'; group: string };

/** Commands of one first word together, each group where its first command stands (`link …` in one place). */
function byGroup<C>(entries: Array<[string, C]>): Array<[string, C]> {
  const firstAt = new Map<string, number>();
  entries.forEach(([name], at) => {
    const group = name.split(' ')[0] ?? name;
    if (!firstAt.has(group)) firstAt.set(group, at);
  });
  const groupAt = (name: string) => firstAt.get(name.split(' ')[0] ?? name) ?? 0;
  return entries
    .map((entry, at) => ({ entry, at }))
    .sort((a, b) => groupAt(a.entry[0]) - groupAt(b.entry[0]) || a.at - b.at)
    .map(({ entry }) => entry);
}

/** The command the first words name, a group of them (`link`), or none; and the usage of each. */
export function commandTable<F extends FlagTable, D>(commands: Commands<F, D>) {
  const names = Object.keys(commands);
  const groups = [
    ...new Set(names.filter((name) => name.includes(' ')).map((name) => name.split(' ')[0] ?? '')),
  ];
  // Own names only: `snip constructor` names no command.
  const commandNamed = (name: string) => (Object.hasOwn(commands, name) ? commands[name] : undefined);

  const synopsisLine = (name: string) => {
    const synopsis = commandNamed(name)?.synopsis;
    return `snip ${name}${synopsis ? ` ${synopsis}` : ''}`;
  };

  /** `usage: snip link list <email> [--group G] [--limit N] [--json]`: what follows a usage error. */
  function oneLine(name: string): string {
    return `usage: ${synopsisLine(name)}${commandNamed(name)?.load ? ' [--json]' : ''}`;
  }

  /** A command's own usage: its synopsis, what it does, and its flags. */
  function commandUsage(name: string, command: Command<F, D>): string {
    const about = `${command.about.charAt(0).toUpperCase()}${command.about.slice(1)}.`;
    return `${oneLine(name)}\n\n${about}${command.details ? `\n${command.details}` : ''}`;
  }

  /** The commands of one group (`snip link --help`). */
  function groupUsage(group: string): string {
    const members = names.filter((name) => name.startsWith(`${group} `));
    return `usage:\n${members.map((name) => `  ${synopsisLine(name)}`).join('\n')}

\`snip ${group} <command> --help\` tells more.`;
  }

  const globalUsage = `usage: snip <command> [arguments] [--json]

${byGroup(Object.entries(commands))
  .map(([name, command]) => `  ${synopsisLine(name)}\n      ${command.about}`)
  .join('\n')}

Every command prints one object (--json: as JSON) and answers --help with its own usage.
Exit codes: 0 done, 1 refused, 2 a stats range it cannot read, 64 usage error, 69 a service it needs
cannot be reached.`;

  return {
    globalUsage,
    oneLine,

    find(positionals: readonly string[]): FoundCommand<F, D> {
      const [first = '', second = '', ...rest] = positionals;
      const single = commandNamed(first);
      if (single) return { kind: 'command', name: first, command: single, args: positionals.slice(1) };
      const pair = commandNamed(`${first} ${second}`);
      if (pair) return { kind: 'command', name: `${first} ${second}`, command: pair, args: rest };
      if (first && groups.includes(first)) return { kind: 'group', group: first };
      return undefined;
    },

    /**
     * The command mistyped words most likely meant, each name weighed against as many words as it
     * has (`lnk lst` against `link list`); failing that, the group the first word is nearest.
     */
    guess(positionals: readonly string[]): Guess | undefined {
      const [first = '', second] = positionals;
      const typed = (words: number) => (words === 1 || second === undefined ? first : `${first} ${second}`);
      let best: Nearest | undefined;
      for (const words of [1, 2]) {
        const candidates = names.filter((name) => name.split(' ').length === words);
        const found = nearest(typed(words), candidates);
        if (found && (best === undefined || found.distance < best.distance)) best = found;
      }
      if (best) return { kind: 'command', name: best.name };
      const group = nearest(first, groups);
      return group && { kind: 'group', group: group.name };
    },

    /** The usage that fits what was found. */
    usageOf(found: FoundCommand<F, D>): string {
      if (found?.kind === 'command') return commandUsage(found.name, found.command);
      if (found?.kind === 'group') return groupUsage(found.group);
      return globalUsage;
    },
  };
}

export type CommandTable<F extends FlagTable, D> = ReturnType<typeof commandTable<F, D>>;
