import type { Command, FlagTable } from './command.ts';

/** Every command by name (`migrate`, `link edit`), in the order the usage lists them. */
export type Commands<F extends FlagTable, D> = Readonly<Record<string, Command<F, D>>>;

export type FoundCommand<F extends FlagTable, D> =
  | { kind: 'command'; name: string; command: Command<F, D>; args: string[] }
  | { kind: 'group'; group: string }
  | undefined;

/** The command the first words name, a group of them (`link`), or none; and the usage of each. */
export function commandTable<F extends FlagTable, D>(commands: Commands<F, D>) {
  const synopsisLine = (name: string) => {
    const synopsis = commands[name]?.synopsis;
    return `snip ${name}${synopsis ? ` ${synopsis}` : ''}`;
  };

  /** A command's own usage: its synopsis, what it does, and its flags. */
  function commandUsage(name: string, command: Command<F, D>): string {
    const about = `${command.about.charAt(0).toUpperCase()}${command.about.slice(1)}.`;
    const json = command.run ? ' [--json]' : '';
    return `usage: ${synopsisLine(name)}${json}\n\n${about}${command.details ? `\n${command.details}` : ''}`;
  }

  /** The commands of one group (`snip link --help`). */
  function groupUsage(group: string): string {
    const names = Object.keys(commands).filter((name) => name.startsWith(`${group} `));
    return `usage:\n${names.map((name) => `  ${synopsisLine(name)}`).join('\n')}

\`snip ${group} <command> --help\` tells more.`;
  }

  const globalUsage = `usage: snip <command> [arguments] [--json]

${Object.entries(commands)
  .map(([name, command]) => `  ${synopsisLine(name)}\n      ${command.about}`)
  .join('\n')}

Every command prints one object (--json: as JSON) and answers --help with its own usage.
Exit codes: 0 done, 1 refused, 2 a stats range it cannot read, 64 usage error, 69 a service it needs
cannot be reached.`;

  return {
    globalUsage,

    find(positionals: readonly string[]): FoundCommand<F, D> {
      const [first = '', second = '', ...rest] = positionals;
      const single = commands[first];
      if (single) return { kind: 'command', name: first, command: single, args: positionals.slice(1) };
      const pair = commands[`${first} ${second}`];
      if (pair) return { kind: 'command', name: `${first} ${second}`, command: pair, args: rest };
      if (first && Object.keys(commands).some((name) => name.startsWith(`${first} `))) {
        return { kind: 'group', group: first };
      }
      return undefined;
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
