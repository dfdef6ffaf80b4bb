import { CLI_ACTOR } from '../../../core/moderation.ts';
import type { Store } from '../../../core/ports/store.ts';
import { type Command, tab, UsageError } from '../../../terminal/command.ts';
import { workspaceAdmin } from '../../workspaces/index.ts';
import { domainJson } from '../domain-json.ts';
import { type DomainsService, redirectTarget } from '../domains.ts';

/** `snip domain …` (docs/api.md §12): the operator's domains, shared or a workspace's. */

export const DOMAIN_FLAGS = {
  shared: { type: 'boolean' },
  workspace: { type: 'string' },
  https: { type: 'string' },
  'root-redirect': { type: 'string' },
  'not-found-redirect': { type: 'string' },
} as const;

export interface DomainCliDeps {
  store: Store;
  /** The domains as the store has them, changes announced to the servers. */
  withDomains<T>(use: (domains: DomainsService) => Promise<T>): Promise<T>;
}

type DomainCommand = Command<typeof DOMAIN_FLAGS, DomainCliDeps>;

const line = (d: Record<string, unknown>) =>
  tab(
    String(d.host),
    d.shared ? 'shared' : String(d.workspace ?? '-'),
    d.verified ? 'verified' : 'unverified',
    `${d.links} links`,
  );

/** `none` clears a redirect; anything else is the URL. */
const redirectFlag = (value: string | undefined) =>
  value === undefined ? undefined : value === 'none' ? null : value;

function httpsFlag(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'on' || value === 'off') return value === 'on';
  throw new UsageError('--https takes on or off');
}

export const DOMAIN_COMMANDS: Record<string, DomainCommand> = {
  'domain add': {
    synopsis: '<host> (--shared | --workspace W)',
    about: 'adds a domain: shared with every workspace (verified at once), or a workspace’s own',
    details: `  --shared          every workspace may put links on it; the operator vouches for it
  --workspace W     the workspace (slug) it belongs to; it serves links once verified
                    (its TXT record, or snip domain verify)`,
    flags: ['shared', 'workspace'],
    args: 1,
    line,
    run: async ({ args: [host = ''], values, store, withDomains }) => {
      if ((values.shared === true) === (values.workspace !== undefined)) {
        throw new UsageError('domain add needs either --shared or --workspace <slug>');
      }
      const workspace = values.workspace ? await workspaceAdmin(store).bySlug(values.workspace) : null;
      const domain = await withDomains((domains) =>
        domains.add(host, { workspace, shared: values.shared === true }, CLI_ACTOR),
      );
      return { ...domainJson(domain, 0), workspace: workspace?.slug ?? null };
    },
  },
  'domain verify': {
    synopsis: '<host>',
    about: 'marks a domain verified: it serves links and gets certificates',
    details: 'The operator’s word replaces the TXT record.',
    flags: [],
    args: 1,
    line,
    run: async ({ args: [host = ''], withDomains }) =>
      withDomains(async (domains) => domainJson(await domains.verify(null, host, CLI_ACTOR), 0)),
  },
  'domain set': {
    synopsis: '<host> [--https on|off] [--root-redirect URL|none] [--not-found-redirect URL|none]',
    about: 'changes a domain’s settings (the default domain’s too)',
    details: `  --https on|off            short URLs on it start with https:// or http://
  --root-redirect URL       where / goes (none: the landing page or 404)
  --not-found-redirect URL  where an unknown code goes (none: the 404 page)`,
    flags: ['https', 'root-redirect', 'not-found-redirect'],
    args: 1,
    line,
    run: async ({ args: [host = ''], values, withDomains }) =>
      withDomains(async (domains) => {
        const change = {
          https: httpsFlag(values.https),
          rootRedirect: redirectOption(redirectFlag(values['root-redirect'])),
          notFoundRedirect: redirectOption(redirectFlag(values['not-found-redirect'])),
        };
        const domain = await domains.update(null, host, change, CLI_ACTOR);
        return domainJson(domain, 0);
      }),
  },
  'domain list': {
    synopsis: '',
    about: 'lists every domain, the default one first',
    details: `One line per domain: host, shared or its workspace, verified or not, live links.
--json prints {"items": [{host, shared, workspace, verified, https, ..., links}, ...]}.`,
    flags: [],
    args: 0,
    line,
    run: async ({ store, withDomains }) =>
      withDomains(async (domains) => {
        const counts = await store.countLinksPerDomain(null);
        const slugs = new Map((await workspaceAdmin(store).list()).map((w) => [w.id, w.slug]));
        const items = domains.all().map((domain) => ({
          ...domainJson(domain, counts.get(domain.id) ?? 0),
          workspace: domain.workspaceId === null ? null : (slugs.get(domain.workspaceId) ?? null),
        }));
        return { items };
      }),
  },
  'domain remove': {
    synopsis: '<host>',
    about: 'removes a domain without live links (refused while it has some)',
    details: 'Its codes stay issued: a domain added again never reissues them.',
    flags: [],
    args: 1,
    run: async ({ args: [host = ''], withDomains }) =>
      withDomains(async (domains) => {
        await domains.remove(null, host, CLI_ACTOR);
        return { removed: host.trim().toLowerCase() };
      }),
  },
};

function redirectOption(value: string | null | undefined): string | null | undefined {
  return value === undefined ? undefined : redirectTarget(value);
}
