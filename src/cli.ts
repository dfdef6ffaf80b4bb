import { parseArgs } from 'node:util';
import { openStore } from './adapters/open-store.ts';
import type { Config } from './config.ts';
import type { Plan } from './core/entities.ts';
import { Refusal } from './core/errors.ts';
import { DEFAULT_PLANS } from './core/plans.ts';
import type { Store } from './core/ports/store.ts';
import { shortUrl } from './core/short-url.ts';
import { accountOperations } from './features/accounts/operator.ts';

/** `npx snip …`: the operator commands of docs/api.md §6. Every command prints one object, as JSON with --json. */

interface Io {
  out: { write(text: string): unknown };
  err: { write(text: string): unknown };
}

const USAGE = `usage: snip <command> [--json]
  serve                                                       run the server (what npm start runs)
  plan create <name> [--api-access|--no-api-access] [--url-quota N] [--rate-limit N]
  account create <email> --plan <name> [--password P]
  account plan <email> <plan>
  key rotate <email>
  group create <email> <name> [--api-id ID]
  link show <short_code>
  migrate                                                     apply pending store migrations`;

class UsageError extends Error {}

const OPTIONS = {
  json: { type: 'boolean' },
  'api-access': { type: 'boolean' },
  'url-quota': { type: 'string' },
  'rate-limit': { type: 'string' },
  plan: { type: 'string' },
  password: { type: 'string' },
  'api-id': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parse>['values'];

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: OPTIONS,
    allowPositionals: true,
    allowNegative: true,
    strict: true,
  });
}

function count(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} takes a whole number, got "${value}"`);
  return Number(value);
}

function planJson(plan: Plan) {
  return {
    name: plan.name,
    api_access: plan.apiAccess,
    url_quota: plan.urlQuota,
    rate_limit_per_hour: plan.rateLimitPerHour,
  };
}

function need(positionals: string[], n: number): string[] {
  if (positionals.length !== n) throw new UsageError(`expected ${n} argument(s), got ${positionals.length}`);
  return positionals;
}

async function dispatch(command: string, args: string[], values: Values, store: Store, config: Config) {
  const ops = accountOperations(store);
  switch (command) {
    case 'migrate':
      need(args, 0);
      return { applied: await store.migrate(), plans: await seedPlans(store) };
    case 'plan create': {
      const [name] = need(args, 1) as [string];
      const plan = await ops.savePlan(name, {
        apiAccess: values['api-access'],
        urlQuota: count(values['url-quota'], '--url-quota'),
        rateLimitPerHour: count(values['rate-limit'], '--rate-limit'),
      });
      return planJson(plan);
    }
    case 'account create': {
      const [email] = need(args, 1) as [string];
      if (!values.plan) throw new UsageError('account create needs --plan <name>');
      const { account, apiKey } = await ops.createAccount(email, values.plan, values.password);
      return { id: account.id, email: account.email, plan: account.plan.name, api_key: apiKey };
    }
    case 'account plan': {
      const [email, planName] = need(args, 2) as [string, string];
      const account = await ops.assignPlan(email, planName);
      return { email: account.email, plan: account.plan.name };
    }
    case 'key rotate': {
      const [email] = need(args, 1) as [string];
      const { account, apiKey } = await ops.rotateKey(email);
      return { email: account.email, api_key: apiKey };
    }
    case 'group create': {
      const [email, name] = need(args, 2) as [string, string];
      const group = await ops.createGroup(email, name, values['api-id']);
      return { id: group.id, api_id: group.apiId, name: group.name };
    }
    case 'link show': {
      const [code] = need(args, 1) as [string];
      const link = await ops.showLink(code);
      return {
        short_code: link.code,
        short_url: shortUrl(config.baseUrl, link.code),
        long_url: link.longUrl,
        title: link.title,
        group_id: link.groupId,
        clicks: link.clicks,
        bot_hits: link.botHits,
        created_at: link.createdAt.toISOString(),
      };
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

async function seedPlans(store: Store): Promise<string[]> {
  await store.ensureDefaultPlans(DEFAULT_PLANS);
  return (await store.listPlans()).map((plan) => plan.name);
}

function isParseError(error: unknown): error is Error {
  return (
    error instanceof TypeError && String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')
  );
}

function human(result: Record<string, unknown>): string {
  return `${Object.entries(result)
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') || '(none)' : String(value)}`)
    .join('\n')}\n`;
}

/** Runs one operator command; returns the exit code (0 ok, 1 refused, 64 usage). */
export async function runCli(argv: readonly string[], config: Config, io: Io): Promise<number> {
  let json = argv.includes('--json');
  let store: Store | undefined;
  try {
    const { values, positionals } = parse(argv);
    json = values.json === true;
    if (values.help || positionals.length === 0) {
      io.out.write(`${USAGE}\n`);
      return 0;
    }
    const [first = '', second = '', ...rest] = positionals;
    const single = first === 'migrate';
    const command = single ? first : `${first} ${second}`.trim();
    store = await openStore(config.databaseUrl, { prepare: command !== 'migrate' });
    const result = await dispatch(command, single ? positionals.slice(1) : rest, values, store, config);
    io.out.write(json ? `${JSON.stringify(result)}\n` : human(result));
    return 0;
  } catch (error) {
    const known = error instanceof Refusal || error instanceof UsageError || isParseError(error);
    if (!known) throw error;
    const message = error.message;
    if (json) io.out.write(`${JSON.stringify({ error: message })}\n`);
    io.err.write(`snip: ${message}\n${error instanceof Refusal ? '' : `${USAGE}\n`}`);
    return error instanceof Refusal ? 1 : 64;
  } finally {
    await store?.close();
  }
}
