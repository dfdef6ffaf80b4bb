/** AccountStore on SQLite: plans, accounts, passwords, API keys and groups. */
import type { Account, AccountStore, ApiKeyInfo, Plan, PlanInput } from '../ports.ts';
import {
  ACCOUNT_COLUMNS,
  API_KEY_COLUMNS,
  GROUP_COLUMNS,
  mapRow,
  PLAN_COLUMNS,
  toAccount,
  toApiKeyInfo,
  toGroup,
  toPlan,
} from '../rows.ts';
import { type Connection, isUniqueViolation } from './connection.ts';

const UPSERT_PLAN = `INSERT INTO plans (name, api_access, url_quota, rate_limit_per_hour) VALUES (?, ?, ?, ?)
  ON CONFLICT (name) DO UPDATE SET api_access = excluded.api_access, url_quota = excluded.url_quota,
    rate_limit_per_hour = excluded.rate_limit_per_hour
  RETURNING ${PLAN_COLUMNS}`;
const ACCOUNT_BY = (column: string) =>
  `SELECT ${ACCOUNT_COLUMNS} FROM accounts a JOIN plans p ON p.id = a.plan_id WHERE a.${column} = ?`;

export function sqliteAccountStore(conn: Connection): AccountStore {
  const upsertPlan = (plan: PlanInput): Plan => {
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

    async replaceApiKey(accountId, prefix, hash): Promise<ApiKeyInfo> {
      return conn.transaction(() => {
        const now = Date.now();
        conn
          .stmt('UPDATE api_keys SET revoked_at = ? WHERE account_id = ? AND revoked_at IS NULL')
          .run(now, accountId);
        const row = conn
          .stmt(
            `INSERT INTO api_keys (account_id, prefix, hash, created_at) VALUES (?, ?, ?, ?) RETURNING ${API_KEY_COLUMNS}`,
          )
          .get(accountId, prefix, hash, now);
        if (!row) throw new Error('INSERT … RETURNING gave no row');
        return toApiKeyInfo(row);
      });
    },

    async findLiveApiKey(accountId) {
      const row = conn
        .stmt(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE account_id = ? AND revoked_at IS NULL`)
        .get(accountId);
      return mapRow(row, toApiKeyInfo);
    },

    async createGroup(accountId, name, apiId) {
      try {
        const row = conn
          .stmt(
            `INSERT INTO groups (account_id, name, api_id, created_at) VALUES (?, ?, ?, ?) RETURNING ${GROUP_COLUMNS}`,
          )
          .get(accountId, name, apiId, Date.now());
        if (!row) throw new Error('INSERT … RETURNING gave no row');
        return { kind: 'created', group: toGroup(row) };
      } catch (error) {
        if (isUniqueViolation(error, 'groups.account_id', 'groups.api_id')) return { kind: 'api-id-taken' };
        throw error;
      }
    },

    async listGroups(accountId) {
      return conn
        .stmt(`SELECT ${GROUP_COLUMNS} FROM groups WHERE account_id = ? ORDER BY id`)
        .all(accountId)
        .map(toGroup);
    },

    async setPasswordHash(accountId, passwordHash) {
      conn.stmt('UPDATE accounts SET password_hash = ? WHERE id = ?').run(passwordHash, accountId);
    },

    async renameGroup(accountId, groupId, name, apiId) {
      try {
        const changed = conn
          .stmt('UPDATE groups SET name = ?, api_id = ? WHERE id = ? AND account_id = ?')
          .run(name, apiId, groupId, accountId).changes;
        return changed === 0 ? 'not-found' : 'renamed';
      } catch (error) {
        if (isUniqueViolation(error, 'groups.account_id', 'groups.api_id')) return 'api-id-taken';
        throw error;
      }
    },

    async deleteGroup(accountId, groupId) {
      // Ungrouping is explicit rather than left to ON DELETE SET NULL, so it holds on any engine.
      return conn.transaction(() => {
        if (!conn.stmt('SELECT 1 FROM groups WHERE id = ? AND account_id = ?').get(groupId, accountId)) {
          return false;
        }
        conn.stmt('UPDATE links SET group_id = NULL WHERE group_id = ?').run(groupId);
        conn.stmt('DELETE FROM groups WHERE id = ? AND account_id = ?').run(groupId, accountId);
        return true;
      });
    },
  };
}
