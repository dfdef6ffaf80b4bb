/** Plans on either dialect (users and workspaces: people-store.ts). */
import type { Plan, PlanSettings } from '../../core/entities.ts';
import type { AccountStore } from '../../core/ports/store.ts';
import { planRow, UPSERT_COLUMNS, UPSERT_SETS } from './plan-rows.ts';
import { mapFirst, PLAN_COLUMNS, toPlan } from './rows.ts';
import { q, rowsOf, type Script, type ScriptRunner } from './script.ts';

export type PlanStore = Pick<
  AccountStore,
  'upsertPlan' | 'findPlanByName' | 'listPlans' | 'ensureDefaultPlans'
>;

function* upsertPlan(plan: PlanSettings): Script<Plan> {
  const { tuple, params } = planRow(plan);
  const rows = yield q(
    `INSERT INTO plans (${UPSERT_COLUMNS}) VALUES ${tuple}
      ON CONFLICT (name) DO UPDATE SET ${UPSERT_SETS} RETURNING ${PLAN_COLUMNS}`,
    ...params,
  );
  const stored = mapFirst(rows, toPlan);
  if (!stored) throw new Error(`upsert of plan ${plan.name} returned no row`);
  return stored;
}

/**
 * The plans, when there is none yet. On SQLite the write lock makes "empty?" and the inserts one
 * step, even with two processes starting. On PostgreSQL two processes starting on an empty table
 * may both find it empty and both insert; the second waits on plans_name_unique and skips.
 */
function* ensureDefaultPlans(plans: readonly PlanSettings[]): Script<void> {
  const [counted] = yield q('SELECT COUNT(*) AS n FROM plans');
  if (Number(counted?.n ?? 0) > 0) return;
  for (const plan of plans) {
    const { tuple, params } = planRow(plan);
    yield q(`INSERT INTO plans (${UPSERT_COLUMNS}) VALUES ${tuple} ON CONFLICT (name) DO NOTHING`, ...params);
  }
}

export function planStore({ read, write }: ScriptRunner): PlanStore {
  return {
    upsertPlan: (plan) => write(upsertPlan(plan)),
    findPlanByName: async (name) =>
      mapFirst(await read(rowsOf(`SELECT ${PLAN_COLUMNS} FROM plans WHERE name = ?`, name)), toPlan),
    listPlans: async () => (await read(rowsOf(`SELECT ${PLAN_COLUMNS} FROM plans ORDER BY id`))).map(toPlan),
    ensureDefaultPlans: (plans) => write(ensureDefaultPlans(plans)),
  };
}
