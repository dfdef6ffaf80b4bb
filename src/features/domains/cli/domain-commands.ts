import { CLI_ACTOR } from '../../../core/moderation.ts';
import type { DomainStore } from '../../../core/ports/domain-store.ts';
import type { AccountStore, WorkspaceStore } from '../../../core/ports/store.ts';
import { type CommandCode, tab, UsageError } from '../../../terminal/command.ts';
import { workspaceAdmin } from '../../workspaces/index.ts';
import { domainJson } from '../domain-json.ts';
import { type DomainsService, redirectTarget } from '../domains.ts';
import type { DOMAIN_FLAGS } from './domain-usage.ts';

/** `snip domain …` (docs/api.md §12): the operator's domains, shared or a workspace's. */

export interface DomainCliDeps {
  store: DomainStore & AccountStore & WorkspaceStore;
  /** The domains as the store has them, changes announced to the servers. */
  withDomains<T>(use: (domains: DomainsService) => Promise<T>): Promise<T>;
}

type DomainCommand = CommandCode<typeof DOMAIN_FLAGS, DomainCliDeps>;

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
    line,
    run: async ({ args: [host = ''], values, store, withDomains }) => {
      const claimant = await claimantOf(store, values.workspace);
      return withDomains(async (domains) =>
        domainJson(await domains.verify(null, host, CLI_ACTOR, claimant), 0),
      );
    },
  },
  'domain set': {
    line,
    run: async ({ args: [host = ''], values, store, withDomains }) => {
      const claimant = await claimantOf(store, values.workspace);
      return withDomains(async (domains) => {
        const change = {
          https: httpsFlag(values.https),
          rootRedirect: redirectOption(redirectFlag(values['root-redirect'])),
          notFoundRedirect: redirectOption(redirectFlag(values['not-found-redirect'])),
        };
        const domain = await domains.update(null, host, change, CLI_ACTOR, claimant);
        return domainJson(domain, 0);
      });
    },
  },
  'domain list': {
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
    run: async ({ args: [host = ''], values, store, withDomains }) => {
      const claimant = await claimantOf(store, values.workspace);
      return withDomains(async (domains) => {
        await domains.remove(null, host, CLI_ACTOR, claimant);
        return { removed: host.trim().toLowerCase() };
      });
    },
  },
};

/** `--workspace W`: whose claim is meant when several workspaces claim the host. */
async function claimantOf(
  store: DomainCliDeps['store'],
  slug: string | undefined,
): Promise<number | undefined> {
  return slug === undefined ? undefined : (await workspaceAdmin(store).bySlug(slug)).id;
}

function redirectOption(value: string | null | undefined): string | null | undefined {
  return value === undefined ? undefined : redirectTarget(value);
}
