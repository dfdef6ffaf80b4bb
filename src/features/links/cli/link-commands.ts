import type { Link } from '../../../core/entities.ts';
import type { AccountStore, GroupStore, LinkStore } from '../../../core/ports/store.ts';
import type { LinkOrigins } from '../../../core/short-url.ts';
import { type CommandCode, type CommandContext, count, tab, UsageError } from '../../../terminal/command.ts';
import type { LinkDraft, LinkEditor, LinkPatch } from '../link-requests.ts';
import { linkJson } from './link-json.ts';
import { linkOperations } from './link-operations.ts';
import { type LINK_FLAGS, LINK_LIST_DEFAULT, LINK_LIST_MAX } from './link-usage.ts';

/** What the process gives the link commands. */
export interface LinkCliDeps {
  store: LinkStore & GroupStore & AccountStore;
  baseUrl: URL;
  /** Each domain's origin, read from the store when a command prints links. */
  origins(): Promise<LinkOrigins>;
  /** The domain `--domain` names (317 for none such); the default domain without it. */
  domainOf(host: string | undefined): Promise<number>;
  /** Runs `use` with the link editor of the API, announcing changes as the servers hear them. */
  withLinkEditor<T>(use: (editor: LinkEditor) => Promise<T>): Promise<T>;
  /** Creates a link in the workspace of that slug with the API's create service, announced likewise. */
  createIn(slug: string, draft: Omit<LinkDraft, 'clientAddress'>): Promise<Link>;
}

export type LinkCommand = CommandCode<typeof LINK_FLAGS, LinkCliDeps>;

/** `snip link …`: any account's links, changed through the API's link editor. */

/** The rules of `--rules`: a JSON array as the API takes it; `none` (or `[]`) clears them. */
function rulesOf(text: string): unknown[] {
  if (text === 'none') return [];
  try {
    const rules: unknown = JSON.parse(text);
    if (Array.isArray(rules)) return rules;
  } catch {}
  throw new UsageError('--rules takes a JSON array of {"if": {…}, "url": …} or none');
}

/** The variants of `--variants`: URL=WEIGHT pairs apart by spaces (a URL holds none); `none` ends the test. */
function variantsOf(text: string): Array<{ url: string; weight: number }> | null {
  if (text === 'none') return null;
  return text
    .trim()
    .split(/\s+/)
    .map((pair) => {
      const at = pair.lastIndexOf('=');
      const weight = pair.slice(at + 1);
      if (at <= 0 || !/^\d{1,3}$/.test(weight)) {
        throw new UsageError(`--variants takes URL=WEIGHT pairs apart by spaces, or none; got "${pair}"`);
      }
      return { url: pair.slice(0, at), weight: Number(weight) };
    });
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
  if (values['public-stats'] && negated.has('no-public-stats')) {
    throw new UsageError('give --public-stats or --no-public-stats, not both');
  }
  if (values['public-stats']) patch.publicStats = true;
  if (negated.has('no-public-stats')) patch.publicStats = false;
  if (values.variants !== undefined) patch.variants = variantsOf(values.variants);
  const endsAt = values['test-ends-at'];
  if (endsAt !== undefined) patch.testEndsAt = endsAt === 'none' ? null : endsAt;
  if (Object.keys(patch).length === 0) throw new UsageError('name at least one thing to change');
  return patch;
}

export const LINK_COMMANDS: Record<string, LinkCommand> = {
  'link create': {
    run: async ({ args: [url = ''], values, store, createIn, origins }) => {
      if (!values.workspace) throw new UsageError('link create needs --workspace <slug>');
      const endsAt = values['test-ends-at'];
      const link = await createIn(values.workspace, {
        url,
        group: undefined,
        ...(values.code === undefined ? {} : { slug: values.code }),
        ...(values.domain === undefined ? {} : { domain: values.domain }),
        ...(values.title === undefined ? {} : { title: values.title }),
        ...(values.tags === undefined ? {} : { tags: values.tags === '' ? [] : values.tags.split(',') }),
        ...(values.variants === undefined ? {} : { variants: variantsOf(values.variants) }),
        ...(endsAt === undefined ? {} : { testEndsAt: endsAt }),
      });
      return linkJson(await linkOperations(store).show(link.domainId, link.code), await origins());
    },
  },
  'link show': {
    run: async ({ args: [code = ''], values, store, origins, domainOf }) => {
      const details = await linkOperations(store).show(await domainOf(values.domain), code);
      return { ...linkJson(details, await origins()), group_id: details.link.groupId };
    },
  },
  'link list': {
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
  'link rename': {
    run: async (ctx) => {
      const [code = '', slug = ''] = ctx.args;
      const domainId = await ctx.domainOf(ctx.values.domain);
      const details = await ctx.withLinkEditor((editor) =>
        linkOperations(ctx.store).edit(editor, domainId, code, { slug }),
      );
      return linkJson(details, await ctx.origins());
    },
  },
  'link delete': {
    run: async (ctx) => {
      const [code = ''] = ctx.args;
      const domainId = await ctx.domainOf(ctx.values.domain);
      await ctx.withLinkEditor((editor) => linkOperations(ctx.store).remove(editor, domainId, code));
      return { short_code: code };
    },
  },
};
