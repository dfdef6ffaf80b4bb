import { issueApiKey } from '../domain/api-key.ts';
import { hashPassword } from '../domain/password.ts';
import {
  DEFAULT_RATE_LIMIT_PER_HOUR,
  DEFAULT_URL_QUOTA,
  normalizeEmail,
  PLAN_NAME_PATTERN,
} from '../domain/plans.ts';
import { isApiId, slugify } from '../domain/slug.ts';
import type { Account, Group, Link, Plan, Store } from '../store/ports.ts';

/** Operator use cases (SPEC.md 5, 6): what `npx snip …` does, usable by the dashboard too. */

export class OperatorError extends Error {
  override name = 'OperatorError';
}

/** A new key for the account, revoking its old one at once; the key itself is returned, never stored. */
export async function issueAccountKey(
  store: Pick<Store, 'replaceApiKey'>,
  accountId: number,
): Promise<string> {
  const issued = issueApiKey();
  await store.replaceApiKey(accountId, issued.prefix, issued.hash);
  return issued.key;
}

export const GROUP_FIELD_RULES = {
  name: 'a group name has 1-100 characters',
  'api-id': 'an API identifier is a lower-case slug (a-z, 0-9, "-"), at most 64 characters, not all digits',
} as const;

/**
 * A group's name and API identifier as stored (ADR 005): the name trimmed, the identifier lower-cased,
 * or derived from the name when none is given; or which of the two breaks its rule.
 */
export function groupFields(
  name: string,
  apiId?: string,
): { name: string; apiId: string } | { invalid: keyof typeof GROUP_FIELD_RULES } {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > 100) return { invalid: 'name' };
  const given = apiId?.trim().toLowerCase();
  const id = given === undefined || given === '' ? slugify(trimmed) : given;
  return isApiId(id) ? { name: trimmed, apiId: id } : { invalid: 'api-id' };
}

export interface PlanChange {
  apiAccess?: boolean;
  urlQuota?: number;
  rateLimitPerHour?: number;
}

export interface IssuedAccount {
  account: Account;
  apiKey: string;
}

export function accountOperations(store: Store) {
  async function planNamed(name: string): Promise<Plan> {
    const plan = await store.findPlanByName(name);
    if (!plan) throw new OperatorError(`no plan named "${name}"`);
    return plan;
  }

  async function accountWithEmail(email: string): Promise<Account> {
    const normalized = normalizeEmail(email);
    const account = normalized ? await store.findAccountByEmail(normalized) : undefined;
    if (!account) throw new OperatorError(`no account with email "${email}"`);
    return account;
  }

  const issueKey = (accountId: number) => issueAccountKey(store, accountId);

  return {
    /** Creates the plan or updates the settings given; unnamed settings keep their value (or the default). */
    async savePlan(name: string, change: PlanChange): Promise<Plan> {
      if (!PLAN_NAME_PATTERN.test(name)) {
        throw new OperatorError('a plan name is 1-40 characters of a-z, 0-9, "-" and "_"');
      }
      for (const [field, value] of [
        ['url quota', change.urlQuota],
        ['rate limit', change.rateLimitPerHour],
      ] as const) {
        if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
          throw new OperatorError(`the ${field} must be a whole number of at least 0`);
        }
      }
      const current = await store.findPlanByName(name);
      return store.upsertPlan({
        name,
        apiAccess: change.apiAccess ?? current?.apiAccess ?? false,
        urlQuota: change.urlQuota ?? current?.urlQuota ?? DEFAULT_URL_QUOTA,
        rateLimitPerHour: change.rateLimitPerHour ?? current?.rateLimitPerHour ?? DEFAULT_RATE_LIMIT_PER_HOUR,
      });
    },

    async createAccount(email: string, planName: string, password?: string): Promise<IssuedAccount> {
      const normalized = normalizeEmail(email);
      if (!normalized) throw new OperatorError(`"${email}" is not an email address`);
      if (password !== undefined && password.length < 8) {
        throw new OperatorError('a password has at least 8 characters');
      }
      const plan = await planNamed(planName);
      const passwordHash = password === undefined ? null : await hashPassword(password);
      const result = await store.createAccount(normalized, plan.id, passwordHash);
      if (result.kind === 'email-taken')
        throw new OperatorError(`an account with email "${normalized}" exists`);
      return { account: result.account, apiKey: await issueKey(result.account.id) };
    },

    async assignPlan(email: string, planName: string): Promise<Account> {
      const account = await accountWithEmail(email);
      const plan = await planNamed(planName);
      await store.setAccountPlan(account.id, plan.id);
      return { ...account, plan };
    },

    /** Issues a new key and revokes the old one at once. */
    async rotateKey(email: string): Promise<{ account: Account; apiKey: string }> {
      const account = await accountWithEmail(email);
      return { account, apiKey: await issueKey(account.id) };
    },

    async createGroup(email: string, name: string, apiId?: string): Promise<Group> {
      const account = await accountWithEmail(email);
      const fields = groupFields(name, apiId);
      if ('invalid' in fields) throw new OperatorError(GROUP_FIELD_RULES[fields.invalid]);
      const { name: trimmed, apiId: id } = fields;
      const result = await store.createGroup(account.id, trimmed, id);
      if (result.kind === 'api-id-taken') throw new OperatorError(`this account already has a group "${id}"`);
      return result.group;
    },

    async showLink(code: string): Promise<Link> {
      const link = await store.findLinkByCode(code);
      if (!link) throw new OperatorError(`no link with code "${code}"`);
      return link;
    },
  };
}

export type AccountOperations = ReturnType<typeof accountOperations>;
