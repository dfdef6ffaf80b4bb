/** AccountStore on PostgreSQL: plans, and the accounts on them. */
import type { Plan, PlanSettings } from '../../core/entities.ts';
import type { AccountStore } from '../../core/ports/store.ts';
import { ACCOUNT_COLUMNS, mapFirst, PLAN_COLUMNS, toAccount, toPlan } from '../sql/rows.ts';
import { type Db, isUniqueViolation, query } from './client.ts';

const UPSERT_PLAN = `INSERT INTO plans (name, api_access, url_quota, rate_limit_per_hour) VALUES ($1, $2, $3, $4)
  ON CONFLICT (name) DO UPDATE SET api_access = excluded.api_access, url_quota = excluded.url_quota,
    rate_limit_per_hour = excluded.rate_limit_per_hour
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
const ACCOUNT_BY = (column: string) =>
  `SELECT ${ACCOUNT_COLUMNS} FROM accounts a JOIN plans p ON p.id = a.plan_id WHERE a.${column} = $1`;
// The insert and the joined read in one round trip.
const CREATE_ACCOUNT = `WITH a AS (
    INSERT INTO accounts (email, plan_id, password_hash, created_at) VALUES ($1, $2, $3, $4)
    RETURNING id, email, password_hash, created_at, plan_id
  )
  SELECT ${ACCOUNT_COLUMNS} FROM a JOIN plans p ON p.id = a.plan_id`;
export function postgresAccountStore(db: Db): AccountStore {
  return {
    async upsertPlan(plan: PlanSettings): Promise<Plan> {
      const row = mapFirst(
        await query(db, UPSERT_PLAN, [plan.name, plan.apiAccess, plan.urlQuota, plan.rateLimitPerHour]),
        toPlan,
      );
      if (!row) throw new Error(`upsert of plan ${plan.name} returned no row`);
      return row;
    },

    async findPlanByName(name) {
      return mapFirst(await query(db, `SELECT ${PLAN_COLUMNS} FROM plans WHERE name = $1`, [name]), toPlan);
    },

    async listAccounts() {
      const sql = `SELECT ${ACCOUNT_COLUMNS} FROM accounts a JOIN plans p ON p.id = a.plan_id ORDER BY a.id`;
      return (await query(db, sql)).map(toAccount);
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

    async createAccount(email, planId, passwordHash) {
      try {
        const rows = await query(db, CREATE_ACCOUNT, [email.toLowerCase(), planId, passwordHash, Date.now()]);
        const account = mapFirst(rows, toAccount);
        if (!account) throw new Error(`account ${email} has no plan ${planId}`);
        return { kind: 'created', account };
      } catch (error) {
        if (isUniqueViolation(error, 'accounts_email_unique')) return { kind: 'email-taken' };
        throw error;
      }
    },

    async findAccountByEmail(email) {
      return mapFirst(await query(db, ACCOUNT_BY('email'), [email.toLowerCase()]), toAccount);
    },

    async findAccountById(id) {
      return mapFirst(await query(db, ACCOUNT_BY('id'), [id]), toAccount);
    },

    async setAccountPlan(accountId, planId) {
      await query(db, 'UPDATE accounts SET plan_id = $1 WHERE id = $2', [planId, accountId]);
    },

    async setPasswordHash(accountId, passwordHash) {
      await query(db, 'UPDATE accounts SET password_hash = $1 WHERE id = $2', [passwordHash, accountId]);
    },
  };
}
