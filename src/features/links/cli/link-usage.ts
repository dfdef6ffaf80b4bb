import type { CommandUsage } from '../../../terminal/command.ts';

export const LINK_LIST_DEFAULT = 50;
export const LINK_LIST_MAX = 1000;

export const LINK_FLAGS = {
  group: { type: 'string' },
  limit: { type: 'string' },
  url: { type: 'string' },
  title: { type: 'string' },
  tags: { type: 'string' },
  'expires-at': { type: 'string' },
  'max-clicks': { type: 'string' },
  password: { type: 'string' },
  rules: { type: 'string' },
  domain: { type: 'string' },
  'public-stats': { type: 'boolean' },
  variants: { type: 'string' },
  'test-ends-at': { type: 'string' },
  workspace: { type: 'string' },
  code: { type: 'string' },
} as const;

/** Flags that clear what a string flag sets. */
export const LINK_NEGATED = ['no-group', 'no-password', 'no-public-stats'] as const;

export const CACHE_NOTE = `Running servers drop the link from their caches at once through Redis when REDIS_URL is set;
without Redis they pick the change up within LINK_CACHE_TTL_SECONDS (30 s by default).`;

export const DOMAIN_NOTE = `  --domain HOST     the domain whose code it is (docs/api.md §12); the default domain without it`;

export const LINK_USAGE: Readonly<Record<string, CommandUsage>> = {
  'link create': {
    synopsis:
      '<url> --workspace W [--code C] [--domain HOST] [--title T] [--tags a,b,c] [--variants "URL=W URL=W…"] [--test-ends-at T]',
    about: "creates a link in a workspace with the API's checks (the target is fetched once)",
    details: `  --workspace W     the workspace (slug) the link belongs to, within its plan's quota
  --code C          a custom code instead of a drawn one (300 for a bad shape, 313 if taken)
  --domain HOST     a domain of the workspace or a shared one (docs/api.md §12); the default without it
  --title T         instead of the target page's title
  --tags a,b,c      its tags
  --variants "URL=W URL=W"  an A/B test from the start (docs/api.md §20): 2-4 URLs, each with its
                    whole per cent, summing to 100, e.g. "https://a.example/=30 https://b.example/=70"
  --test-ends-at T  an RFC 3339 time at which the best variant becomes the url
Prints the link as \`snip link list\` does. A refused link is not made and exits 1; --json then
prints {"error", "code"} with the API's code (e.g. 305: that URL already has a link).`,
    flags: ['workspace', 'code', 'domain', 'title', 'tags', 'variants', 'test-ends-at'],
    args: 1,
  },
  'link show': {
    synopsis: '<short_code> [--domain HOST]',
    about: 'one live link with its counts',
    details: `${DOMAIN_NOTE}
--json prints the link as \`snip link list\` does, and its group_id.`,
    flags: ['domain'],
    args: 1,
  },
  'link list': {
    synopsis: '<email> [--group G] [--limit N]',
    about: "the account's live links, newest first",
    details: `  --group G         only the links of this group: its numeric ID or API identifier
  --limit N         at most N links, 1 to ${LINK_LIST_MAX} (default ${LINK_LIST_DEFAULT})
One line per link: code, short URL, long URL, clicks, bot hits, group, tags, created, title.
--json prints {"items": [...]}: short_code, short_url, long_url, title, group, tags, clicks,
bot_hits, created_at, updated_at.`,
    flags: ['group', 'limit'],
    args: 1,
  },
  'link edit': {
    synopsis:
      '<short_code> [--url U] [--title T] [--group G | --no-group] [--tags a,b,c] [--expires-at T] [--max-clicks N] [--password P | --no-password] [--rules JSON] [--public-stats | --no-public-stats] [--variants "URL=W URL=W…"] [--test-ends-at T]',
    about: 'changes a link with the checks of the API; `snip link rename` changes its code',
    details: `  --url U           a new target, checked as on create (300, 310, 305, 306-311; fetched once)
  --title T         a new title ('' clears it)
  --group G         moves it to this group of its account (ID or API identifier; 312 if none)
  --no-group        takes it out of its group
  --tags a,b,c      replaces its tags ('' clears them)
  --expires-at T    an RFC 3339 time, or none
  --max-clicks N    a visit limit in human clicks, or none
  --password P      asks visitors for this password (8-1,024 characters; stored as a scrypt hash)
  --no-password     removes the password
  --rules JSON      targeting rules as the API takes them, e.g.
                    '[{"if": {"device": "ios"}, "url": "https://apps.apple.com/…"}]'; none clears them
  --public-stats    shows its stats page to anyone at /<code>+ on its domain (docs/api.md §19)
  --no-public-stats hides it again
  --variants "URL=W URL=W"  an A/B test (docs/api.md §20): 2-4 URLs, each with its whole per cent,
                    summing to 100, e.g. "https://a.example/=30 https://b.example/=70"; none ends it
  --test-ends-at T  an RFC 3339 time at which the best variant becomes the url, or none
Prints the link as \`snip link list\` does. A refused change changes nothing and exits 1;
--json then prints {"error", "code"} with the API's code (314: no such live link).
${CACHE_NOTE}`,
    flags: [
      'domain',
      'url',
      'title',
      'group',
      'no-group',
      'tags',
      'expires-at',
      'max-clicks',
      'password',
      'no-password',
      'rules',
      'public-stats',
      'variants',
      'test-ends-at',
      'no-public-stats',
    ],
    args: 1,
  },
  'link rename': {
    synopsis: '<short_code> <new_code> [--domain HOST]',
    about: 'gives a link a new code; the old one stays its alias (redirects, counts, never issued again)',
    details: `${DOMAIN_NOTE}
The new code is checked as a slug on create: 300 for a bad shape, 313 for a code a link or an
alias on the domain has or ever had. Renaming to one of the link's own aliases makes it the code
again. Prints the link as \`snip link list\` does, with its aliases, oldest first.
${CACHE_NOTE}`,
    flags: ['domain'],
    args: 2,
  },
  'link delete': {
    synopsis: '<short_code> [--domain HOST]',
    about: 'deletes a link; its code answers 404 and is never issued again',
    details: `${DOMAIN_NOTE}
--json prints {"short_code": …}; an unknown or deleted code is refused with 314.
${CACHE_NOTE}`,
    flags: ['domain'],
    args: 1,
  },
};
