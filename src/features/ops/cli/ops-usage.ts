import type { CommandUsage } from '../../../terminal/command.ts';

export const OPS_USAGE: Readonly<Record<string, CommandUsage>> = {
  serve: {
    synopsis: '[--processes N|auto]',
    about: 'runs the server (what npm start runs)',
    details: `Reads its settings from the environment (docs/configuration.md); stops on SIGTERM or SIGINT.
--processes N (or PROCESSES=N; auto: one per core) runs N worker processes on the one port, under a
primary that replaces a worker that dies and, on SIGTERM or SIGINT, waits for every worker to write
its clicks and stop. More than 1 needs PostgreSQL and Redis (docs/adr/023), or the start is refused
(exit 78). /metrics then answers every worker's series, each labelled worker="k" (docs/adr/052).`,
    flags: ['processes'],
    args: 0,
  },
  migrate: {
    synopsis: '',
    about: 'applies pending store migrations',
    details: `The server also applies them at start. A store without plans gets the default ones.
--json prints {"applied": [...], "plans": [...]}.`,
    flags: [],
    args: 0,
    prepare: false,
  },
};
