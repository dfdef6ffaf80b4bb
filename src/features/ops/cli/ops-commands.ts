import { DEFAULT_PLANS } from '../../../core/plans.ts';
import type { Store } from '../../../core/ports/store.ts';
import type { Command, FlagTable } from '../../../terminal/command.ts';

/** `snip serve` and `snip migrate` (docs/api.md §6): running the service and preparing its store. */

type OpsCommand = Command<FlagTable, { store: Store }>;

export const OPS_COMMANDS: Record<string, OpsCommand> = {
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
    run: async ({ store }) => {
      const applied = await store.migrate();
      await store.ensureDefaultPlans(DEFAULT_PLANS);
      return { applied, plans: (await store.listPlans()).map((plan) => plan.name) };
    },
  },
};
