import { DEFAULT_PLANS } from '../../../core/plans.ts';
import type { Given } from '../../../kernel/feature.ts';
import type { CommandCode, FlagTable } from '../../../terminal/command.ts';

/** `snip migrate` (docs/api.md §6): preparing the store; `snip serve` is run by the process itself. */
export const OPS_COMMANDS: Record<string, CommandCode<FlagTable, Given>> = {
  migrate: {
    run: async ({ kernel: { store } }) => {
      const applied = await store.migrate();
      await store.ensureDefaultPlans(DEFAULT_PLANS);
      return { applied, plans: (await store.listPlans()).map((plan) => plan.name) };
    },
  },
};
