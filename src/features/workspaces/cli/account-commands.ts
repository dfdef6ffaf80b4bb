import { createInterface } from 'node:readline';
import type { PlanPrice } from '../../../core/entities.ts';
import type { Store } from '../../../core/ports/store.ts';
import {
  type Command,
  type CommandContext,
  count,
  type FlagValues,
  tab,
  UsageError,
} from '../../../terminal/command.ts';
import { cliAudit } from '../audit-actor.ts';
import { accountJson, planJson } from './account-json.ts';
import { accountOperations, type PlanChange } from './account-operations.ts';

/** `snip plan …`, `snip account …` and `snip key rotate` (docs/api.md §6), in the order the usage lists them. */

export const ACCOUNT_FLAGS = {
  'api-access': { type: 'boolean' },
  'url-quota': { type: 'string' },
  'rate-limit': { type: 'string' },
  price: { type: 'string' },
  currency: { type: 'string' },
  free: { type: 'boolean' },
  public: { type: 'boolean' },
  description: { type: 'string' },
  'stripe-price': { type: 'string' },
  plan: { type: 'string' },
  password: { type: 'string' },
} as const;

type AccountDeps = { store: Store };
type AccountCommand = Command<typeof ACCOUNT_FLAGS, AccountDeps>;
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
    synopsis:
      '<name> [--api-access|--no-api-access] [--url-quota N] [--rate-limit N] [--price N --currency C | --free] [--public|--no-public] [--description TEXT] [--stripe-price ID|none]',
    about: 'creates a plan, or updates the settings given of an existing one',
    details: `  --api-access      the plan's accounts may use the API (--no-api-access: they may not)
  --url-quota N     links an account may hold
  --rate-limit N    API requests an account may make per hour
  --price N         what it costs a month, in minor units (900 is 9.00), with
  --currency C      its ISO 4217 currency (EUR, USD, JPY…); --price 0 is free
  --free            no price (nor a Stripe price unless --stripe-price names one)
  --public          listed on /pricing (--no-public: not listed)
  --description T   what it includes, up to 500 characters ('' clears it)
  --stripe-price ID the Stripe price it sells as (price_…); none clears it
Settings not given keep their value; a new plan is free, unlisted, without API access.`,
    flags: [
      'api-access',
      'url-quota',
      'rate-limit',
      'price',
      'currency',
      'free',
      'public',
      'description',
      'stripe-price',
    ],
    args: 1,
    run: async ({ args: [name = ''], values, store }) => {
      const plan = await accountOperations(store).savePlan(name, planChangeFrom(values));
      return planJson(plan);
    },
  },
  'plan list': {
    synopsis: '',
    about: 'lists the plans',
    details: `One line per plan: name, price, listed or not, API access, URL quota, requests per hour,
Stripe price, description.
--json prints {"items": [{name, api_access, url_quota, rate_limit_per_hour, price: {amount, currency}
or null, public, description, stripe_price}, ...]}.`,
    flags: [],
    args: 0,
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
    synopsis: '<email> --plan <name> [--password P]',
    about: 'creates a user, their personal workspace and its API key',
    details: `  --plan <name>     the account's plan (required)
  --password P      lets the account sign in to the dashboard (8 to 1,024 characters); or set it
                    later with \`snip account password <email>\`, which reads it from stdin
The API key is printed only now (and on \`snip key rotate\`).`,
    flags: ['plan', 'password'],
    args: 1,
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
    synopsis: '<email> <plan>',
    about: 'puts the personal workspace of the user on a plan',
    flags: [],
    args: 2,
    run: async ({ args: [email = '', plan = ''], store, io }) => {
      const account = await accountOperations(store, cliAudit(store, io.err)).assignPlan(email, plan);
      return { email: account.user.email, plan: account.workspace.plan.name };
    },
  },
  'account password': {
    synopsis: '<email> [--password P]',
    about: 'sets the password the account signs in to the dashboard with',
    details: `Reads the password from the first line of stdin unless --password is given, e.g.
  printf '%s\\n' "$PASSWORD" | npx snip account password you@example.com
A password has 8 to 1,024 characters. Every dashboard session of the account ends.`,
    flags: ['password'],
    args: 1,
    run: async (ctx) => {
      const [email = ''] = ctx.args;
      const account = await accountOperations(ctx.store).setPassword(email, await passwordFrom(ctx, email));
      return { email: account.user.email };
    },
  },
  'account list': {
    synopsis: '',
    about: 'lists the accounts, oldest first',
    details: `One line per user: email, plan and address of their personal workspace, created.
--json prints {"items": [{email, plan, workspace, created_at}, ...]}.`,
    flags: [],
    args: 0,
    line: (account) => tab(account.email, account.plan, account.workspace, account.created_at),
    run: async ({ store }) => ({ items: (await accountOperations(store).listAccounts()).map(accountJson) }),
  },
  'key rotate': {
    synopsis: '<email>',
    about: "issues a new main API key of the user's personal workspace and revokes the old one at once",
    details: 'The new key is printed only now.',
    flags: [],
    args: 1,
    run: async ({ args: [email = ''], store, io }) => {
      const { account, apiKey } = await accountOperations(store, cliAudit(store, io.err)).rotateKey(email);
      return { email: account.user.email, api_key: apiKey };
    },
  },
};
