import { createInterface } from 'node:readline';
import type { PlanPrice } from '../../../core/entities.ts';
import { Refusal } from '../../../core/errors.ts';
import { CLI_ACTOR } from '../../../core/moderation.ts';
import { normalizeEmail } from '../../../core/plans.ts';
import type { StoreOf } from '../../../kernel/feature.ts';
import {
  type CommandCode,
  type CommandContext,
  count,
  type FlagValues,
  tab,
  UsageError,
} from '../../../terminal/command.ts';
import { auditFact, cliAudit } from '../audit-actor.ts';
import { accountJson, planJson } from './account-json.ts';
import { accountOperations, type PlanChange } from './account-operations.ts';
import type { ACCOUNT_FLAGS } from './account-usage.ts';

/** `snip plan …`, `snip account …` and `snip key rotate` (docs/api.md §6), in the order the usage lists them. */

type AccountDeps = StoreOf<'accounts' | 'workspaces' | 'keys' | 'sessions' | 'audit'>;
type AccountCommand = CommandCode<typeof ACCOUNT_FLAGS, AccountDeps>;
type PlanFlags = FlagValues<typeof ACCOUNT_FLAGS>;

/** ISO 4217 as this Node's Intl knows it: the currencies a price can be formatted in. */
const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));
const DESCRIPTION_MAX = 500;
const STRIPE_PRICE = /^price_[A-Za-z0-9_]{1,200}$/;

function currencyFrom(text: string): string {
  const code = text.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code) || !CURRENCIES.has(code)) {
    throw new UsageError(`--currency takes an ISO 4217 code such as EUR or USD, got "${text}"`);
  }
  return code;
}

/** --price N --currency C, --price 0 or --free: undefined when neither is given (the price is kept). */
function priceFrom(values: PlanFlags): PlanPrice | null | undefined {
  const amount = count(values.price, '--price');
  const currency = values.currency === undefined ? undefined : currencyFrom(values.currency);
  if (values.free) {
    if (amount !== undefined && amount > 0) throw new UsageError('--free takes no --price above 0');
    return null;
  }
  if (amount === undefined) {
    if (currency !== undefined) throw new UsageError('--currency goes with --price N');
    return undefined;
  }
  if (amount === 0) return null;
  if (currency === undefined) throw new UsageError('--price needs --currency C (ISO 4217, e.g. EUR)');
  return { amount, currency };
}

function descriptionFrom(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const description = text.trim();
  const control = [...description].some((ch) => (ch.codePointAt(0) ?? 0) < 0x20 || ch === '\x7f');
  if ([...description].length > DESCRIPTION_MAX || control) {
    throw new UsageError(`--description takes up to ${DESCRIPTION_MAX} characters on one line`);
  }
  return description;
}

function stripePriceFrom(text: string | undefined): string | null | undefined {
  if (text === undefined) return undefined;
  if (text === 'none') return null;
  if (!STRIPE_PRICE.test(text)) throw new UsageError(`--stripe-price takes a price id (price_…) or none`);
  return text;
}

/** The settings the words of `plan create` name; what they leave out is kept. */
function planChangeFrom(values: PlanFlags): PlanChange {
  return {
    apiAccess: values['api-access'],
    urlQuota: count(values['url-quota'], '--url-quota'),
    rateLimitPerHour: count(values['rate-limit'], '--rate-limit'),
    price: priceFrom(values),
    public: values.public,
    description: descriptionFrom(values.description),
    stripePriceId: stripePriceFrom(values['stripe-price']),
  };
}

/** A price as it was given: minor units and currency. */
const priceWords = (price: unknown) => {
  const given = price as PlanPrice | null;
  return given ? `${given.amount} ${given.currency}` : 'free';
};

/** The first line (its newline dropped) from a pipe or a terminal. */
async function firstLine(input: NodeJS.ReadableStream): Promise<string | undefined> {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY, terminal: false });
  for await (const line of lines) return line;
  return undefined;
}

async function passwordFrom(
  { values, io }: CommandContext<typeof ACCOUNT_FLAGS, AccountDeps>,
  email: string,
): Promise<string> {
  if (values.password !== undefined) return values.password;
  const input = io.input();
  if (input.isTTY) io.err.write(`new password for ${email} (shown as typed; end with Enter): `);
  return (await firstLine(input)) ?? '';
}

export const ACCOUNT_COMMANDS: Record<string, AccountCommand> = {
  'plan create': {
    run: async ({ args: [name = ''], values, store }) => {
      const plan = await accountOperations(store).savePlan(name, planChangeFrom(values));
      return planJson(plan);
    },
  },
  'plan list': {
    line: (plan) =>
      tab(
        plan.name,
        priceWords(plan.price),
        plan.public ? 'public' : 'unlisted',
        plan.api_access ? 'api access' : 'no api access',
        plan.url_quota,
        plan.rate_limit_per_hour,
        plan.stripe_price,
        plan.description === '' ? undefined : plan.description,
      ),
    run: async ({ store }) => ({ items: (await accountOperations(store).listPlans()).map(planJson) }),
  },
  'account create': {
    run: async ({ args: [email = ''], values, store }) => {
      if (!values.plan) throw new UsageError('account create needs --plan <name>');
      const ops = accountOperations(store);
      const { account, apiKey } = await ops.createAccount(email, values.plan, values.password);
      return {
        id: account.user.id,
        email: account.user.email,
        plan: account.workspace.plan.name,
        workspace: account.workspace.slug,
        api_key: apiKey,
      };
    },
  },
  'account plan': {
    run: async ({ args: [email = '', plan = ''], store, io }) => {
      const account = await accountOperations(store, cliAudit(store, io.err)).assignPlan(email, plan);
      return { email: account.user.email, plan: account.workspace.plan.name };
    },
  },
  'account password': {
    run: async (ctx) => {
      const [email = ''] = ctx.args;
      const account = await accountOperations(ctx.store).setPassword(email, await passwordFrom(ctx, email));
      return { email: account.user.email };
    },
  },
  'account list': {
    line: (account) => tab(account.email, account.plan, account.workspace, account.created_at),
    run: async ({ store }) => ({ items: (await accountOperations(store).listAccounts()).map(accountJson) }),
  },
  'user 2fa-off': {
    run: async ({ args: [email = ''], store, io }) => {
      const user = await store.findUserByEmail(normalizeEmail(email) ?? email.trim().toLowerCase());
      if (!user) throw new Refusal('no-such-user');
      const wasOn = await store.disableTwoFactor(user.id);
      const fact = auditFact(null, '2fa.disable', user.email, { two_factor: wasOn }, { two_factor: false });
      await cliAudit(store, io.err)({ ...fact, ...CLI_ACTOR });
      return { email: user.email, two_factor: false, was_on: wasOn };
    },
  },
  'key rotate': {
    run: async ({ args: [email = ''], store, io }) => {
      const { account, apiKey } = await accountOperations(store, cliAudit(store, io.err)).rotateKey(email);
      return { email: account.user.email, api_key: apiKey };
    },
  },
};
