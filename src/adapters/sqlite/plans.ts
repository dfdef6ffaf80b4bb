/** Plans on SQLite (users and workspaces: adapters/sql/people-store.ts). */
import type { Plan, PlanSettings } from '../../core/entities.ts';
import type { AccountStore } from '../../core/ports/store.ts';
import { planValues, UPSERT_COLUMNS, UPSERT_SETS } from '../sql/plan-rows.ts';
import { mapRow, PLAN_COLUMNS, toPlan } from '../sql/rows.ts';
import type { Connection } from './connection.ts';

type PlanStore = Pick<AccountStore, 'upsertPlan' | 'findPlanByName' | 'listPlans' | 'ensureDefaultPlans'>;

const UPSERT_PLAN = `INSERT INTO plans (${UPSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (name) DO UPDATE SET ${UPSERT_SETS}
  RETURNING ${PLAN_COLUMNS}`;

export function sqlitePlanStore(conn: Connection): PlanStore {
  const upsertPlan = (plan: PlanSettings): Plan => {
    const row = conn
      .stmt(UPSERT_PLAN)
      .get(...planValues(plan).map((value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value)));
    if (!row) throw new Error(`upsert of plan ${plan.name} returned no row`);
    return toPlan(row);
  };

  return {
    async upsertPlan(plan) {
      return upsertPlan(plan);
    },

    async findPlanByName(name) {
      return mapRow(conn.stmt(`SELECT ${PLAN_COLUMNS} FROM plans WHERE name = ?`).get(name), toPlan);
    },

    async listPlans() {
      return conn.stmt(`SELECT ${PLAN_COLUMNS} FROM plans ORDER BY id`).all().map(toPlan);
    },

    async ensureDefaultPlans(plans) {
      // BEGIN IMMEDIATE makes "empty?" and the inserts one step, even with two processes starting.
      conn.transaction(() => {
        const row = conn.stmt('SELECT COUNT(*) AS n FROM plans').get();
        if (row?.n === 0) for (const plan of plans) upsertPlan(plan);
      });
    },
  };
}
