/** AccountStore on PostgreSQL: plans, accounts, API keys and groups. */
import type { AccountStore, ApiKeyInfo, Plan, PlanInput } from '../ports.ts';
import {
  ACCOUNT_COLUMNS,
  API_KEY_COLUMNS,
  GROUP_COLUMNS,
  mapFirst,
  PLAN_COLUMNS,
  toAccount,
  toApiKeyInfo,
  toGroup,
  toPlan,
} from '../rows.ts';
import { type Db, isUniqueViolation, query, transaction } from './client.ts';

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
const REVOKE_KEYS = 'UPDATE api_keys SET revoked_at = $1 WHERE account_id = $2 AND revoked_at IS NULL';
const INSERT_KEY = `INSERT INTO api_keys (account_id, prefix, hash, created_at) VALUES ($1, $2, $3, $4)
  RETURNING ${API_KEY_COLUMNS}`;
/**
 * Two rotations of one account at once: the second one's UPDATE cannot see the key the first has
 * just inserted (its snapshot predates that commit), so its insert meets api_keys_one_live. Run
 * again, it revokes that key; the later rotation wins, as with SQLite's serialised writers.
 */
const ROTATE_ATTEMPTS = 5;
const RENAME_GROUP =
  'UPDATE groups SET name = $3, api_id = $4 WHERE account_id = $1 AND id = $2 RETURNING id';
// Ungrouping is explicit rather than left to ON DELETE SET NULL, so it holds on any engine (as on
// SQLite). FOR UPDATE holds off a concurrent rename or delete of the group until this one ends.
const LOCK_GROUP = 'SELECT 1 FROM groups WHERE account_id = $1 AND id = $2 FOR UPDATE';
const UNGROUP_LINKS = 'UPDATE links SET group_id = NULL WHERE group_id = $1';
const DELETE_GROUP = 'DELETE FROM groups WHERE account_id = $1 AND id = $2';

export function postgresAccountStore(db: Db): AccountStore {
  const rotate = (accountId: number, prefix: string, hash: Buffer) =>
    transaction(db, async (tx) => {
      const now = Date.now();
      await query(tx, REVOKE_KEYS, [now, accountId]);
      const info = mapFirst(await query(tx, INSERT_KEY, [accountId, prefix, hash, now]), toApiKeyInfo);
      if (!info) throw new Error('INSERT … RETURNING gave no row');
      return info;
    });

  return {
    async upsertPlan(plan: PlanInput): Promise<Plan> {
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

    async replaceApiKey(accountId, prefix, hash): Promise<ApiKeyInfo> {
      for (let attempt = 1; ; attempt++) {
        try {
          return await rotate(accountId, prefix, hash);
        } catch (error) {
          if (attempt >= ROTATE_ATTEMPTS || !isUniqueViolation(error, 'api_keys_one_live')) throw error;
        }
      }
    },

    async findLiveApiKey(accountId) {
      const rows = await query(
        db,
        `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL`,
        [accountId],
      );
      return mapFirst(rows, toApiKeyInfo);
    },

    async createGroup(accountId, name, apiId) {
      try {
        const rows = await query(
          db,
          `INSERT INTO groups (account_id, name, api_id, created_at) VALUES ($1, $2, $3, $4) RETURNING ${GROUP_COLUMNS}`,
          [accountId, name, apiId, Date.now()],
        );
        const group = mapFirst(rows, toGroup);
        if (!group) throw new Error('INSERT … RETURNING gave no row');
        return { kind: 'created', group };
      } catch (error) {
        if (isUniqueViolation(error, 'groups_account_api_id_unique')) return { kind: 'api-id-taken' };
        throw error;
      }
    },

    async listGroups(accountId) {
      return (
        await query(db, `SELECT ${GROUP_COLUMNS} FROM groups WHERE account_id = $1 ORDER BY id`, [accountId])
      ).map(toGroup);
    },

    async renameGroup(accountId, groupId, name, apiId) {
      try {
        const rows = await query(db, RENAME_GROUP, [accountId, groupId, name, apiId]);
        return rows.length === 0 ? 'not-found' : 'renamed';
      } catch (error) {
        if (isUniqueViolation(error, 'groups_account_api_id_unique')) return 'api-id-taken';
        throw error;
      }
    },

    async deleteGroup(accountId, groupId) {
      return transaction(db, async (tx) => {
        if ((await query(tx, LOCK_GROUP, [accountId, groupId])).length === 0) return false;
        await query(tx, UNGROUP_LINKS, [groupId]);
        await query(tx, DELETE_GROUP, [accountId, groupId]);
        return true;
      });
    },
  };
}
