import type { Store } from '../../../core/ports/store.ts';
import type { LinkOrigins } from '../../../core/short-url.ts';
import { type Command, type CommandContext, count, tab, UsageError } from '../../../terminal/command.ts';
import type { LinkEditor, LinkPatch } from '../link-requests.ts';
import { linkJson } from './link-json.ts';
import { LINK_LIST_DEFAULT, LINK_LIST_MAX, linkOperations } from './link-operations.ts';

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
} as const;

/** Flags that clear what a string flag sets. */
export const LINK_NEGATED = ['no-group', 'no-password'] as const;

/** What the process gives the link commands. */
export interface LinkCliDeps {
  store: Store;
  baseUrl: URL;
  /** Each domain's origin, read from the store when a command prints links. */
  origins(): Promise<LinkOrigins>;
  /** The domain `--domain` names (317 for none such); the default domain without it. */
  domainOf(host: string | undefined): Promise<number>;
  /** Runs `use` with the link editor of the API, announcing changes as the servers hear them. */
  withLinkEditor<T>(use: (editor: LinkEditor) => Promise<T>): Promise<T>;
}

export type LinkCommand = Command<typeof LINK_FLAGS, LinkCliDeps>;

/** `snip link …`: any account's links, changed through the API's link editor. */

const CACHE_NOTE = `Running servers drop the link from their caches at once through Redis when REDIS_URL is set;
without Redis they pick the change up within LINK_CACHE_TTL_SECONDS (30 s by default).`;

/** The rules of `--rules`: a JSON array as the API takes it; `none` (or `[]`) clears them. */
function rulesOf(text: string): unknown[] {
  if (text === 'none') return [];
  try {
    const rules: unknown = JSON.parse(text);
    if (Array.isArray(rules)) return rules;
  } catch {}
  throw new UsageError('--rules takes a JSON array of {"if": {…}, "url": …} or none');
}

/** The change the flags name; `none` clears expiry, visit limit and rules as null does in the API. */
function linkPatch({ values, negated }: CommandContext<typeof LINK_FLAGS, LinkCliDeps>): LinkPatch {
  const noGroup = negated.has('no-group');
  if (noGroup && values.group !== undefined) throw new UsageError('give --group or --no-group, not both');
  if (negated.has('no-password') && values.password !== undefined) {
    throw new UsageError('give --password or --no-password, not both');
  }
  const patch: LinkPatch = {};
  if (values.url !== undefined) patch.url = values.url;
  if (values.title !== undefined) patch.title = values.title;
  if (noGroup) patch.group = null;
  else if (values.group !== undefined) patch.group = values.group;
  if (values.tags !== undefined) patch.tags = values.tags === '' ? [] : values.tags.split(',');
  const expiresAt = values['expires-at'];
  if (expiresAt !== undefined) patch.expiresAt = expiresAt === 'none' ? null : expiresAt;
  const maxClicks = values['max-clicks'];
  if (maxClicks !== undefined) {
    if (maxClicks !== 'none' && !/^-?\d+$/.test(maxClicks)) {
      throw new UsageError(`--max-clicks takes a whole number or none, got "${maxClicks}"`);
    }
    patch.maxClicks = maxClicks === 'none' ? null : Number(maxClicks);
  }
  if (values.password !== undefined) patch.password = values.password;
  if (negated.has('no-password')) patch.password = null;
  if (values.rules !== undefined) patch.rules = rulesOf(values.rules);
  if (Object.keys(patch).length === 0) throw new UsageError('name at least one thing to change');
  return patch;
}

const DOMAIN_NOTE = `  --domain HOST     the domain whose code it is (docs/api.md §12); the default domain without it`;

export const LINK_COMMANDS: Record<string, LinkCommand> = {
  'link show': {
    synopsis: '<short_code> [--domain HOST]',
    about: 'one live link with its counts',
    details: `${DOMAIN_NOTE}
--json prints the link as \`snip link list\` does, and its group_id.`,
    flags: ['domain'],
    args: 1,
    run: async ({ args: [code = ''], values, store, origins, domainOf }) => {
      const details = await linkOperations(store).show(await domainOf(values.domain), code);
      return { ...linkJson(details, await origins()), group_id: details.link.groupId };
    },
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
    line: (link) =>
      tab(
        link.short_code,
        link.short_url,
        link.long_url,
        link.clicks,
        link.bot_hits,
        link.group,
        (link.tags as string[]).join(',') || null,
        link.created_at,
        link.title || null,
      ),
    run: async ({ args: [email = ''], values, store, origins }) => {
      const limit = count(values.limit, '--limit') ?? LINK_LIST_DEFAULT;
      if (limit < 1 || limit > LINK_LIST_MAX) {
        throw new UsageError(`--limit takes 1 to ${LINK_LIST_MAX}, got ${limit}`);
      }
      const links = await linkOperations(store).list(email, { group: values.group, limit });
      const shown = await origins();
      return { items: links.map((details) => linkJson(details, shown)) };
    },
  },
  'link edit': {
    synopsis:
      '<short_code> [--url U] [--title T] [--group G | --no-group] [--tags a,b,c] [--expires-at T] [--max-clicks N] [--password P | --no-password] [--rules JSON]',
    about: 'changes a link with the checks of the API; its code never changes',
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
    ],
    args: 1,
    run: async (ctx) => {
      const [code = ''] = ctx.args;
      const patch = linkPatch(ctx);
      const domainId = await ctx.domainOf(ctx.values.domain);
      const details = await ctx.withLinkEditor((editor) =>
        linkOperations(ctx.store).edit(editor, domainId, code, patch),
      );
      return linkJson(details, await ctx.origins());
    },
  },
  'link delete': {
    synopsis: '<short_code> [--domain HOST]',
    about: 'deletes a link; its code answers 404 and is never issued again',
    details: `${DOMAIN_NOTE}
--json prints {"short_code": …}; an unknown or deleted code is refused with 314.
${CACHE_NOTE}`,
    flags: ['domain'],
    args: 1,
    run: async (ctx) => {
      const [code = ''] = ctx.args;
      const domainId = await ctx.domainOf(ctx.values.domain);
      await ctx.withLinkEditor((editor) => linkOperations(ctx.store).remove(editor, domainId, code));
      return { short_code: code };
    },
  },
};
