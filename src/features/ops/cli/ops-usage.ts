import type { CommandUsage } from '../../../terminal/command.ts';

export const OPS_USAGE: Readonly<Record<string, CommandUsage>> = {
  serve: {
    synopsis: '',
    about: 'runs the server (what npm start runs)',
    details: 'Reads its settings from the environment (docs/configuration.md); stops on SIGTERM or SIGINT.',
    flags: [],
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
