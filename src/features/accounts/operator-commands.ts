import { createInterface } from 'node:readline';
import { DEFAULT_PLANS } from '../../core/plans.ts';
import { accountOperations } from './operator.ts';
import { type Command, type CommandContext, count, tab, UsageError } from './operator-command.ts';
import { accountJson, planJson } from './operator-json.ts';
import { LINK_COMMANDS } from './operator-link-commands.ts';

/** Every operator command (docs/api.md §6), in the order the usage lists them. */

/** The first line (its newline dropped) from a pipe or a terminal. */
async function firstLine(input: NodeJS.ReadableStream): Promise<string | undefined> {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY, terminal: false });
  for await (const line of lines) return line;
  return undefined;
}

async function passwordFrom({ values, io }: CommandContext, email: string): Promise<string> {
  if (values.password !== undefined) return values.password;
  const input = io.input();
  if (input.isTTY) io.err.write(`new password for ${email} (shown as typed; end with Enter): `);
  return (await firstLine(input)) ?? '';
}

export const COMMANDS: Record<string, Command> = {
  serve: {
    synopsis: '',
    about: 'runs the server (what npm start runs)',
    details: 'Reads its settings from the environment (README, Configuration); stops on SIGTERM or SIGINT.',
    flags: [],
    args: 0,
  },
  migrate: {
    synopsis: '',
    about: 'applies pending store migrations',
    details: `The server also applies them at start. A store without plans gets the default ones.
--json prints {"applied": [...], "plans": [...]}.`,
    flags: [],
    args: 0,
    prepare: false,
    run: async ({ store }) => {
      const applied = await store.migrate();
      await store.ensureDefaultPlans(DEFAULT_PLANS);
      return { applied, plans: (await store.listPlans()).map((plan) => plan.name) };
    },
  },
  'plan create': {
    synopsis: '<name> [--api-access|--no-api-access] [--url-quota N] [--rate-limit N]',
    about: 'creates a plan, or updates the settings given of an existing one',
    details: `  --api-access      the plan's accounts may use the API (--no-api-access: they may not)
  --url-quota N     links an account may hold
  --rate-limit N    API requests an account may make per hour`,
    flags: ['api-access', 'url-quota', 'rate-limit'],
    args: 1,
    run: async ({ args: [name = ''], values, store }) => {
      const plan = await accountOperations(store).savePlan(name, {
        apiAccess: values['api-access'],
        urlQuota: count(values['url-quota'], '--url-quota'),
        rateLimitPerHour: count(values['rate-limit'], '--rate-limit'),
      });
      return planJson(plan);
    },
  },
  'plan list': {
    synopsis: '',
    about: 'lists the plans',
    details: `One line per plan: name, API access, URL quota, requests per hour.
--json prints {"items": [{name, api_access, url_quota, rate_limit_per_hour}, ...]}.`,
    flags: [],
    args: 0,
    line: (plan) =>
      tab(
        plan.name,
        plan.api_access ? 'api access' : 'no api access',
        plan.url_quota,
        plan.rate_limit_per_hour,
      ),
    run: async ({ store }) => ({ items: (await accountOperations(store).listPlans()).map(planJson) }),
  },
  'account create': {
    synopsis: '<email> --plan <name> [--password P]',
    about: 'creates an account and its API key',
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
      return { id: account.id, email: account.email, plan: account.plan.name, api_key: apiKey };
    },
  },
  'account plan': {
    synopsis: '<email> <plan>',
    about: 'puts the account on a plan',
    flags: [],
    args: 2,
    run: async ({ args: [email = '', plan = ''], store }) => {
      const account = await accountOperations(store).assignPlan(email, plan);
      return { email: account.email, plan: account.plan.name };
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
      return { email: account.email };
    },
  },
  'account list': {
    synopsis: '',
    about: 'lists the accounts, oldest first',
    details: `One line per account: email, plan, created.
--json prints {"items": [{email, plan, created_at}, ...]}.`,
    flags: [],
    args: 0,
    line: (account) => tab(account.email, account.plan, account.created_at),
    run: async ({ store }) => ({ items: (await accountOperations(store).listAccounts()).map(accountJson) }),
  },
  'key rotate': {
    synopsis: '<email>',
    about: 'issues a new main API key and revokes the old one at once',
    details: 'The new key is printed only now.',
    flags: [],
    args: 1,
    run: async ({ args: [email = ''], store }) => {
      const { account, apiKey } = await accountOperations(store).rotateKey(email);
      return { email: account.email, api_key: apiKey };
    },
  },
  'group create': {
    synopsis: '<email> <name> [--api-id ID]',
    about: 'creates a group of the account',
    details: `  --api-id ID       its API identifier (a lower-case slug, not all digits); derived from the
                    name when not given`,
    flags: ['api-id'],
    args: 2,
    run: async ({ args: [email = '', name = ''], values, store }) => {
      const group = await accountOperations(store).createGroup(email, name, values['api-id']);
      return { id: group.id, api_id: group.apiId, name: group.name };
    },
  },
  ...LINK_COMMANDS,
};

export type FoundCommand =
  | { kind: 'command'; name: string; command: Command; args: string[] }
  | { kind: 'group'; group: string }
  | undefined;

/** The command the first words name (`migrate`, `link edit`), a group of them (`link`), or none. */
export function findCommand(positionals: readonly string[]): FoundCommand {
  const [first = '', second = '', ...rest] = positionals;
  const single = COMMANDS[first];
  if (single) return { kind: 'command', name: first, command: single, args: positionals.slice(1) };
  const pair = COMMANDS[`${first} ${second}`];
  if (pair) return { kind: 'command', name: `${first} ${second}`, command: pair, args: rest };
  if (first && Object.keys(COMMANDS).some((name) => name.startsWith(`${first} `))) {
    return { kind: 'group', group: first };
  }
  return undefined;
}

const synopsisLine = (name: string) => {
  const synopsis = COMMANDS[name]?.synopsis;
  return `snip ${name}${synopsis ? ` ${synopsis}` : ''}`;
};

/** A command's own usage: its synopsis, what it does, and its flags. */
export function commandUsage(name: string): string {
  const command = COMMANDS[name] as Command;
  const about = `${command.about.charAt(0).toUpperCase()}${command.about.slice(1)}.`;
  const json = command.run ? ' [--json]' : '';
  return `usage: ${synopsisLine(name)}${json}\n\n${about}${command.details ? `\n${command.details}` : ''}`;
}

/** The commands of one group (`snip link --help`). */
export function groupUsage(group: string): string {
  const names = Object.keys(COMMANDS).filter((name) => name.startsWith(`${group} `));
  return `usage:\n${names.map((name) => `  ${synopsisLine(name)}`).join('\n')}

\`snip ${group} <command> --help\` tells more.`;
}

export const GLOBAL_USAGE = `usage: snip <command> [arguments] [--json]

${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${synopsisLine(name)}\n      ${command.about}`)
  .join('\n')}

Every command prints one object (--json: as JSON) and answers --help with its own usage.
Exit codes: 0 done, 1 refused, 2 a stats range it cannot read, 64 usage error, 69 a service it needs
cannot be reached.`;

/** The usage that fits what was found. */
export function usageOf(found: FoundCommand): string {
  if (found?.kind === 'command') return commandUsage(found.name);
  if (found?.kind === 'group') return groupUsage(found.group);
  return GLOBAL_USAGE;
}
