/** AccountStore on SQLite: plans, and the accounts on them. */
import type { Account, Plan, PlanSettings } from '../../core/entities.ts';
import type { AccountStore } from '../../core/ports/store.ts';
import { ACCOUNT_COLUMNS, mapRow, PLAN_COLUMNS, toAccount, toPlan } from '../sql/rows.ts';
import { type Connection, isUniqueViolation } from './connection.ts';

const UPSERT_PLAN = `INSERT INTO plans (name, api_access, url_quota, rate_limit_per_hour) VALUES (?, ?, ?, ?)
  ON CONFLICT (name) DO UPDATE SET api_access = excluded.api_access, url_quota = excluded.url_quota,
    rate_limit_per_hour = excluded.rate_limit_per_hour
  RETURNING ${PLAN_COLUMNS}`;
const ACCOUNT_BY = (column: string) =>
  `SELECT ${ACCOUNT_COLUMNS} FROM accounts a JOIN plans p ON p.id = a.plan_id WHERE a.${column} = ?`;

export function sqliteAccountStore(conn: Connection): AccountStore {
  const upsertPlan = (plan: PlanSettings): Plan => {
    const row = conn
      .stmt(UPSERT_PLAN)
      .get(plan.name, plan.apiAccess ? 1 : 0, plan.urlQuota, plan.rateLimitPerHour);
    if (!row) throw new Error(`upsert of plan ${plan.name} returned no row`);
    return toPlan(row);
  };
  const accountById = (id: number): Account | undefined =>
    mapRow(conn.stmt(ACCOUNT_BY('id')).get(id), toAccount);

  return {
    async upsertPlan(plan) {
      return upsertPlan(plan);
    },

    async findPlanByName(name) {
      return mapRow(conn.stmt(`SELECT ${PLAN_COLUMNS} FROM plans WHERE name = ?`).get(name), toPlan);
    },

    async listAccounts() {
      const sql = `SELECT ${ACCOUNT_COLUMNS} FROM accounts a JOIN plans p ON p.id = a.plan_id ORDER BY a.id`;
      return conn.stmt(sql).all().map(toAccount);
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

    async createAccount(email, planId, passwordHash) {
      try {
        const row = conn
          .stmt(
            'INSERT INTO accounts (email, plan_id, password_hash, created_at) VALUES (?, ?, ?, ?) RETURNING id',
          )
          .get(email.toLowerCase(), planId, passwordHash, Date.now());
        const account = row && accountById(row.id as number);
        if (!account) throw new Error(`account ${email} vanished after insert`);
        return { kind: 'created', account };
      } catch (error) {
        if (isUniqueViolation(error, 'accounts.email')) return { kind: 'email-taken' };
        throw error;
      }
    },

    async findAccountByEmail(email) {
      return mapRow(conn.stmt(ACCOUNT_BY('email')).get(email.toLowerCase()), toAccount);
    },

    async findAccountById(id) {
      return accountById(id);
    },

    async setAccountPlan(accountId, planId) {
      conn.stmt('UPDATE accounts SET plan_id = ? WHERE id = ?').run(planId, accountId);
    },

    async setPasswordHash(accountId, passwordHash) {
      conn.stmt('UPDATE accounts SET password_hash = ? WHERE id = ?').run(passwordHash, accountId);
    },
  };
}
