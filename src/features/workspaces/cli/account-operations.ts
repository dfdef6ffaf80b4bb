import { KEY_PREFIX_LENGTH } from '../../../core/api-key.ts';
import type { Account, Plan, PlanPrice, PlanSettings, Workspace } from '../../../core/entities.ts';
import { Refusal } from '../../../core/errors.ts';
import { CLI_ACTOR, NO_AUDIT, type RecordAudit } from '../../../core/moderation.ts';
import { hashPassword } from '../../../core/password.ts';
import {
  DEFAULT_RATE_LIMIT_PER_HOUR,
  DEFAULT_URL_QUOTA,
  normalizeEmail,
  PLAN_NAME_PATTERN,
} from '../../../core/plans.ts';
import type { AccountStore, KeyStore, SessionStore, WorkspaceStore } from '../../../core/ports/store.ts';
import { accountWithEmail, personalWorkspace } from '../account-of.ts';
import { issueAccountKey } from '../api-access.ts';
import { auditFact } from '../audit-actor.ts';
import { PASSWORD_MAX, PASSWORD_MIN } from '../sign-in.ts';

/** Operator use cases (docs/api.md §5, §6): what `npx snip …` does. Refusals carry what went wrong. */

/** What `plan create` sets; a field left out keeps its value (docs/api.md §17 for the last four). */
export interface PlanChange {
  apiAccess?: boolean;
  urlQuota?: number;
  rateLimitPerHour?: number;
  /** null: free (a price of 0 is stored as free too); a free plan is not sold through Stripe. */
  price?: PlanPrice | null;
  public?: boolean;
  description?: string;
  /** null: not sold through Stripe. */
  stripePriceId?: string | null;
}

export interface IssuedAccount {
  account: Account;
  apiKey: string;
}

/** The rule of sign-up: a password has PASSWORD_MIN to PASSWORD_MAX characters. */
function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw new Refusal('password-invalid', `a password has ${PASSWORD_MIN} to 1,024 characters`);
  }
}

/** The rules of a plan's name and numbers. */
function checkPlanSettings(name: string, change: PlanChange): void {
  if (!PLAN_NAME_PATTERN.test(name)) {
    throw new Refusal('plan-name-invalid', 'a plan name is 1-40 characters of a-z, 0-9, "-" and "_"');
  }
  for (const [field, value] of [
    ['url quota', change.urlQuota],
    ['rate limit', change.rateLimitPerHour],
    ['price', change.price?.amount],
  ] as const) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
      throw new Refusal('number-invalid', `the ${field} must be a whole number of at least 0`);
    }
  }
}

/** One way to say free: no price; a price of nothing is none. Currencies are kept upper case. */
function freeAsNull(price: PlanPrice | null): PlanPrice | null {
  if (price === null || price.amount === 0) return null;
  return { amount: price.amount, currency: price.currency.toUpperCase() };
}

/** The plan as the change leaves it: what it names, else what the plan had, else the defaults. */
function planAfter(name: string, change: PlanChange, current: Plan | undefined): PlanSettings {
  const price = change.price === undefined ? (current?.price ?? null) : freeAsNull(change.price);
  return {
    name,
    apiAccess: change.apiAccess ?? current?.apiAccess ?? false,
    urlQuota: change.urlQuota ?? current?.urlQuota ?? DEFAULT_URL_QUOTA,
    rateLimitPerHour: change.rateLimitPerHour ?? current?.rateLimitPerHour ?? DEFAULT_RATE_LIMIT_PER_HOUR,
    price,
    public: change.public ?? current?.public ?? false,
    description: change.description ?? current?.description ?? '',
    stripePriceId: stripePriceAfter(change, price, current),
  };
}

/** The Stripe price named, else the one kept; a plan made free stops being sold unless one is named. */
function stripePriceAfter(change: PlanChange, price: PlanPrice | null, current: Plan | undefined) {
  if (change.stripePriceId !== undefined) return change.stripePriceId;
  if (change.price !== undefined && price === null) return null;
  return current?.stripePriceId ?? null;
}

/**
 * The operator's changes of a workspace are recorded in the audit log (`audit`, none by default):
 * workspace.plan (the plan's name before and after) and key.rotate (the main key's prefix).
 */
export function accountOperations(
  store: AccountStore & WorkspaceStore & KeyStore & SessionStore,
  audit: RecordAudit = NO_AUDIT,
) {
  async function planNamed(name: string): Promise<Plan> {
    const plan = await store.findPlanByName(name);
    if (!plan) throw new Refusal('no-such-plan', `no plan named "${name}"`);
    return plan;
  }

  const accountOf = (email: string) => accountWithEmail(store, email);

  /** The workspace on the plan; its links and keys stay as they are (docs/api.md §17). */
  async function putOnPlan(workspace: Workspace, planName: string): Promise<Workspace> {
    const plan = await planNamed(planName);
    await store.setWorkspacePlan(workspace.id, plan.id);
    const before = { plan: workspace.plan.name };
    const fact = auditFact(workspace.id, 'workspace.plan', workspace.slug, before, { plan: plan.name });
    if (before.plan !== plan.name) await audit({ ...CLI_ACTOR, ...fact });
    return { ...workspace, plan };
  }

  const issueKey = (account: Account) => issueAccountKey(store, account.workspace.id, account.user.id);

  return {
    /** Creates the plan or updates the settings given; unnamed settings keep their value (or the default). */
    async savePlan(name: string, change: PlanChange): Promise<Plan> {
      checkPlanSettings(name, change);
      return store.upsertPlan(planAfter(name, change, await store.findPlanByName(name)));
    },

    async createAccount(email: string, planName: string, password?: string): Promise<IssuedAccount> {
      const normalized = normalizeEmail(email);
      if (!normalized) throw new Refusal('email-invalid', `"${email}" is not an email address`);
      if (password !== undefined) checkPassword(password);
      const plan = await planNamed(planName);
      const passwordHash = password === undefined ? null : await hashPassword(password);
      // The operator vouches for the address.
      const result = await store.createAccount(normalized, plan.id, passwordHash, true);
      if (result.kind === 'email-taken') {
        throw new Refusal('email-taken', `an account with email "${normalized}" exists`);
      }
      return { account: result.account, apiKey: await issueKey(result.account) };
    },

    async assignPlan(email: string, planName: string): Promise<Account> {
      const account = await accountOf(email);
      return { ...account, workspace: await putOnPlan(account.workspace, planName) };
    },

    /** `snip workspace plan`: any workspace, personal or a team's, by its slug. */
    putOnPlan,

    /** Issues a new key and revokes the old one at once. */
    async rotateKey(email: string): Promise<{ account: Account; apiKey: string }> {
      const account = await accountOf(email);
      const old = (await store.listLiveKeys(account.workspace.id)).find((key) => key.main);
      const apiKey = await issueKey(account);
      const after = { prefix: apiKey.slice(0, KEY_PREFIX_LENGTH) };
      const before = old ? { prefix: old.prefix } : null;
      const fact = auditFact(account.workspace.id, 'key.rotate', old?.name ?? 'API Access', before, after);
      await audit({ ...CLI_ACTOR, ...fact });
      return { account, apiKey };
    },

    /** Sets the password as sign-up would and ends every session of the user. */
    async setPassword(email: string, password: string): Promise<Account> {
      const account = await accountOf(email);
      checkPassword(password);
      await store.setPasswordHash(account.user.id, await hashPassword(password));
      await store.deleteSessionsOfUser(account.user.id);
      return account;
    },

    /** Oldest first. */
    listAccounts: (): Promise<Account[]> => store.listAccounts(),

    listPlans: (): Promise<Plan[]> => store.listPlans(),
  };
}

export type AccountOperations = ReturnType<typeof accountOperations>;

export { accountWithEmail, personalWorkspace };
