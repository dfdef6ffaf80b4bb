/** Plans on PostgreSQL (users and workspaces: adapters/sql/people-store.ts). */
import type { Plan, PlanSettings } from '../../core/entities.ts';
import type { AccountStore } from '../../core/ports/store.ts';
import { planValues, UPSERT_COLUMNS, UPSERT_SETS } from '../sql/plan-rows.ts';
import { mapFirst, PLAN_COLUMNS, toPlan } from '../sql/rows.ts';
import { type Db, query } from './client.ts';

type PlanStore = Pick<AccountStore, 'upsertPlan' | 'findPlanByName' | 'listPlans' | 'ensureDefaultPlans'>;

const UPSERT_PLAN = `INSERT INTO plans (${UPSERT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
  ON CONFLICT (name) DO UPDATE SET ${UPSERT_SETS}
  RETURNING ${PLAN_COLUMNS}`;
// One statement: "no plan yet?" and the inserts cannot be split by another process. Two processes
// starting on an empty table both insert; the second waits on plans_name_unique and skips.
// api_access travels as text ('true'/'false'): postgres.js types an array parameter by its first
// element, so a JS boolean[] would be sent as a single boolean and refused.
const INSERT_DEFAULT_PLANS = `INSERT INTO plans (name, api_access, url_quota, rate_limit_per_hour)
  SELECT name, api_access::boolean, url_quota, rate_limit_per_hour
  FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[])
    AS t (name, api_access, url_quota, rate_limit_per_hour)
  WHERE NOT EXISTS (SELECT 1 FROM plans)
  ON CONFLICT (name) DO NOTHING`;
export function postgresPlanStore(db: Db): PlanStore {
  return {
    async upsertPlan(plan: PlanSettings): Promise<Plan> {
      const row = mapFirst(await query(db, UPSERT_PLAN, planValues(plan)), toPlan);
      if (!row) throw new Error(`upsert of plan ${plan.name} returned no row`);
      return row;
    },

    async findPlanByName(name) {
      return mapFirst(await query(db, `SELECT ${PLAN_COLUMNS} FROM plans WHERE name = $1`, [name]), toPlan);
    },

    async listPlans() {
      return (await query(db, `SELECT ${PLAN_COLUMNS} FROM plans ORDER BY id`)).map(toPlan);
    },

    async ensureDefaultPlans(plans) {
      if (plans.length === 0) return;
      await query(db, INSERT_DEFAULT_PLANS, [
        plans.map((plan) => plan.name),
        plans.map((plan) => String(plan.apiAccess)),
        plans.map((plan) => plan.urlQuota),
        plans.map((plan) => plan.rateLimitPerHour),
      ]);
    },
  };
}
