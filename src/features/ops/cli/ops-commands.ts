import { DEFAULT_PLANS } from '../../../core/plans.ts';
import type { StoreOf } from '../../../kernel/feature.ts';
import type { CommandCode, FlagTable } from '../../../terminal/command.ts';

/** `snip migrate` (docs/api.md §6): preparing the store; `snip serve` is run by the process itself. */
export const OPS_COMMANDS: Record<string, CommandCode<FlagTable, StoreOf<'upkeep' | 'accounts'>>> = {
  migrate: {
    run: async ({ store }) => {
      const applied = await store.migrate();
      await store.ensureDefaultPlans(DEFAULT_PLANS);
      return { applied, plans: (await store.listPlans()).map((plan) => plan.name) };
    },
  },
};
