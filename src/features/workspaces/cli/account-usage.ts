import type { CommandUsage } from '../../../terminal/command.ts';

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

export const ACCOUNT_USAGE: Readonly<Record<string, CommandUsage>> = {
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
  },
  'account plan': {
    synopsis: '<email> <plan>',
    about: 'puts the personal workspace of the user on a plan',
    flags: [],
    args: 2,
  },
  'account password': {
    synopsis: '<email> [--password P]',
    about: 'sets the password the account signs in to the dashboard with',
    details: `Reads the password from the first line of stdin unless --password is given, e.g.
  printf '%s\\n' "$PASSWORD" | npx snip account password you@example.com
A password has 8 to 1,024 characters. Every dashboard session of the account ends.`,
    flags: ['password'],
    args: 1,
  },
  'account list': {
    synopsis: '',
    about: 'lists the accounts, oldest first',
    details: `One line per user: email, plan and address of their personal workspace, created.
--json prints {"items": [{email, plan, workspace, created_at}, ...]}.`,
    flags: [],
    args: 0,
  },
  'user 2fa-off': {
    synopsis: '<email>',
    about: 'turns two-factor sign-in off for a user who lost their device and recovery codes',
    details: `Their secret and recovery codes are deleted; they sign in with their password alone and
may turn it on again. Written to the audit log.`,
    flags: [],
    args: 1,
  },
  'key rotate': {
    synopsis: '<email>',
    about: "issues a new main API key of the user's personal workspace and revokes the old one at once",
    details: 'The new key is printed only now.',
    flags: [],
    args: 1,
  },
};
