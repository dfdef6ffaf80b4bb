import { listFetcher } from './adapters/inspect/fetch-list.ts';
import { createInspector } from './adapters/inspect/inspector.ts';
import { LocalLinkEvents } from './adapters/memory/link-events.ts';
import { MemoryWindowCounter } from './adapters/memory/window-counter.ts';
import { openStore } from './adapters/open-store.ts';
import type { SharedState } from './adapters/redis/shared-state.ts';
import type { Config } from './config.ts';
import { Refusal, UnavailableError } from './core/errors.ts';
import { DOMAINS_CHANGED } from './core/link-key.ts';
import type { RecordAudit } from './core/moderation.ts';
import type { Inspector } from './core/ports/inspector.ts';
import type { KeyAuthenticator } from './core/ports/key-auth.ts';
import type { LinkEvents } from './core/ports/shared-state.ts';
import type { Store } from './core/ports/store.ts';
import { shortUrl } from './core/short-url.ts';
import {
  ABUSE_COMMANDS,
  ABUSE_FLAGS,
  type AbuseCliDeps,
  type AbuseOperations,
  AbuseScreen,
  abuseOperations,
} from './features/abuse/index.ts';
import { STATS_COMMANDS, STATS_FLAGS } from './features/analytics/index.ts';
import {
  DOMAIN_COMMANDS,
  DOMAIN_FLAGS,
  type DomainCliDeps,
  DomainRegistry,
  type DomainsService,
  domainsService,
  type TxtResolver,
} from './features/domains/index.ts';
import { GROUP_COMMANDS, GROUP_FLAGS } from './features/groups/index.ts';
import { IMPORT_COMMANDS, IMPORT_FLAGS, type ImportCliDeps } from './features/imports/index.ts';
import {
  type CreateLinkAs,
  LINK_COMMANDS,
  LINK_FLAGS,
  LINK_NEGATED,
  type LinkCliDeps,
  type LinkEditor,
} from './features/links/index.ts';
import { OPS_COMMANDS } from './features/ops/index.ts';
import { linkEventSink } from './features/webhooks/index.ts';
import {
  ACCOUNT_COMMANDS,
  ACCOUNT_FLAGS,
  cliAudit,
  WORKSPACE_COMMANDS,
  WORKSPACE_FLAGS,
} from './features/workspaces/index.ts';
import { createService, editorService } from './services.ts';
import { BASE_FLAGS, type Command } from './terminal/command.ts';
import { commandTable } from './terminal/command-table.ts';
import { type Io, runCommand } from './terminal/run-command.ts';

export type { Io } from './terminal/run-command.ts';

/**
 * `npx snip …`: the operator commands of docs/api.md §6, each declared by its feature, wired here
 * to the store, the link services (services.ts) and Redis. Every command prints one object, as JSON
 * with --json, and answers --help with its own usage. Exit codes: 0 done, 1 refused, 2 a stats
 * range it cannot read, 64 usage error, 69 a service it needs cannot be reached.
 */

/** What tests put in place of the real thing. */
export interface CliDeps {
  /**
   * Inspects new targets of `link edit` and the rows of `link import`; by default the real,
   * SSRF-safe one (closed afterwards).
   */
  inspector?: Inspector;
  /** Verifies domains by their TXT record; the system resolver by default. */
  resolveTxt?: TxtResolver;
}

const FLAGS = {
  ...BASE_FLAGS,
  ...ACCOUNT_FLAGS,
  ...WORKSPACE_FLAGS,
  ...GROUP_FLAGS,
  ...LINK_FLAGS,
  ...IMPORT_FLAGS,
  ...STATS_FLAGS,
  ...DOMAIN_FLAGS,
  ...ABUSE_FLAGS,
} as const;

/** What every command may run with: each feature's commands take the part they name. */
interface Deps extends LinkCliDeps, ImportCliDeps, DomainCliDeps, AbuseCliDeps {
  /** ANALYTICS_RETENTION_DAYS: how far back hourly stats reach. */
  retentionDays: number;
}

const COMMANDS: Record<string, Command<typeof FLAGS, Deps>> = {
  ...OPS_COMMANDS,
  ...ACCOUNT_COMMANDS,
  ...WORKSPACE_COMMANDS,
  ...GROUP_COMMANDS,
  ...LINK_COMMANDS,
  ...IMPORT_COMMANDS,
  ...STATS_COMMANDS,
  ...DOMAIN_COMMANDS,
  ...ABUSE_COMMANDS,
};

const TABLE = commandTable(COMMANDS);

/** With REDIS_URL, link changes are announced the way the servers (src/main.ts) hear them. */
async function openSharedState(config: Config): Promise<SharedState | undefined> {
  if (!config.redisUrl) return undefined;
  const { openRedisState } = await import('./adapters/redis/shared-state.ts');
  try {
    return await openRedisState(config.redisUrl, config.redisPrefix, config.storeTimeoutMs);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UnavailableError(
      `REDIS_URL is set but Redis cannot be reached (${reason}); nothing was changed`,
    );
  }
}

/** The blocklists as the store has them, for the checks of `link edit` and `link import`. */
async function loadScreen(store: Store): Promise<AbuseScreen> {
  const screen = new AbuseScreen(store);
  await screen.refresh();
  return screen;
}

/** The inspector given, or the real one, made only when a target needs inspecting. */
function lazyInspector(config: Config, deps: CliDeps, screen: AbuseScreen): Inspector {
  let created: Inspector | undefined;
  return (
    deps.inspector ?? {
      inspect: (url) => {
        const blockedHost = (host: string) => screen.blocksHost(host);
        created ??= createInspector({ allowPrivate: config.allowPrivateTargets, blockedHost });
        return created.inspect(url);
      },
      close: async () => created?.close(),
    }
  );
}

/** `link import --no-inspect`: every target passes unfetched, its title only what the file gives. */
const ACCEPT_UNFETCHED: Inspector = {
  inspect: async (url) => ({ ok: true, title: '', finalUrl: url.href, status: 200 }),
  close: async () => {},
};

/** The create service acts for an account directly (`createAs`); no key is ever presented to it. */
const NO_KEYS: KeyAuthenticator = {
  authenticate: async () => {
    throw new Refusal('301');
  },
};

/** The domains as the store has them now; changes are announced to the servers on `linkEvents`. */
async function loadDomains(
  store: Store,
  config: Config,
  deps: CliDeps,
  linkEvents?: Pick<LinkEvents, 'changed'>,
  audit?: RecordAudit,
): Promise<DomainsService> {
  const { resolveTxt } = await import('node:dns/promises');
  const domains = domainsService({
    store,
    registry: new DomainRegistry(config.baseUrl),
    resolveTxt: deps.resolveTxt ?? resolveTxt,
    announce: async () => linkEvents?.changed(DOMAINS_CHANGED),
    audit,
  });
  await domains.refresh();
  return domains;
}

/** The API's create service, acting for an account as `link import` does: no key, no hourly window. */
async function withLinkCreator<T>(
  store: Store,
  config: Config,
  deps: CliDeps,
  options: { inspect: boolean },
  use: (createAs: CreateLinkAs) => Promise<T>,
): Promise<T> {
  const screen = await loadScreen(store);
  const inspector = options.inspect ? lazyInspector(config, deps, screen) : ACCEPT_UNFETCHED;
  const counter = new MemoryWindowCounter();
  const domains = await loadDomains(store, config, deps);
  const isBlocked = (host: string) => screen.blocksHost(host);
  const service = createService(config, { store, keys: NO_KEYS, inspector, counter, domains, isBlocked });
  try {
    return await use(service.createAs);
  } finally {
    // An injected inspector belongs to the caller.
    if (inspector !== deps.inspector) await inspector.close();
  }
}

/** The announcements of changes the servers hear (Redis when configured), open while `use` runs. */
async function withLinkEvents<T>(config: Config, use: (linkEvents: LinkEvents) => Promise<T>): Promise<T> {
  const shared = await openSharedState(config);
  const linkEvents = shared?.ports.linkEvents ?? new LocalLinkEvents();
  try {
    return await use(linkEvents);
  } finally {
    await linkEvents.close();
    await shared?.ports.demoLog.close();
    await shared?.close();
  }
}

/** The API's link editor; the real inspector is made only if a new target needs inspecting. */
async function withLinkEditor<T>(
  store: Store,
  config: Config,
  deps: CliDeps,
  use: (editor: LinkEditor) => Promise<T>,
): Promise<T> {
  const screen = await loadScreen(store);
  const inspector = lazyInspector(config, deps, screen);
  const isBlocked = (host: string) => screen.blocksHost(host);
  try {
    return await withLinkEvents(config, async (linkEvents) => {
      const domains = await loadDomains(store, config, deps);
      const ports = { store, inspector, counter: new MemoryWindowCounter(), linkEvents, domains, isBlocked };
      return use(
        editorService(config, { ...ports, events: linkEventSink(domains.registry, config.webhooks) }),
      );
    });
  } finally {
    if (inspector !== deps.inspector) await inspector.close();
  }
}

/** The operator's abuse services, changes announced to the servers; lists fetched SSRF-safely. */
async function withAbuse<T>(
  store: Store,
  config: Config,
  deps: CliDeps,
  io: Io,
  use: (abuse: AbuseOperations) => Promise<T>,
): Promise<T> {
  const fetcher = listFetcher({ allowPrivate: config.allowPrivateTargets });
  try {
    return await withLinkEvents(config, async (linkEvents) => {
      const { registry } = await loadDomains(store, config, deps);
      const operations = abuseOperations({
        store,
        linkEvents,
        fetchList: fetcher.fetch,
        counter: new MemoryWindowCounter(),
        events: linkEventSink(registry, config.webhooks),
        onError: (error) => io.err.write(`snip: the audit log could not be written: ${String(error)}\n`),
      });
      return use({ ...operations, shortUrl: (link) => shortUrl(registry, link) });
    });
  } finally {
    await fetcher.close();
  }
}

/** Runs one operator command; returns the exit code (0 done, 1 refused, 2 range, 64 usage, 69 unavailable). */
export async function runCli(
  argv: readonly string[],
  config: Config,
  io: Io,
  deps: CliDeps = {},
): Promise<number> {
  return runCommand(
    argv,
    {
      table: TABLE,
      grammar: { flags: FLAGS, negated: LINK_NEGATED },
      open: async (command) => {
        const store = await openStore(config.databaseUrl, { prepare: command.prepare ?? true });
        const opened: Deps = {
          store,
          baseUrl: config.baseUrl,
          // The domains as the store has them: the short URLs a command prints, and `--domain`.
          origins: async () => (await loadDomains(store, config, deps)).registry,
          domainOf: async (host) =>
            host === undefined ? 0 : (await loadDomains(store, config, deps)).registry.idOf(host),
          retentionDays: config.analyticsRetentionDays,
          withLinkEditor: (use) => withLinkEditor(store, config, deps, use),
          withLinkCreator: (options, use) => withLinkCreator(store, config, deps, options, use),
          withAbuse: (use) => withAbuse(store, config, deps, io, use),
          withDomains: (use) =>
            withLinkEvents(config, async (linkEvents) =>
              use(await loadDomains(store, config, deps, linkEvents, cliAudit(store, io.err))),
            ),
        };
        return { deps: opened, close: () => store.close() };
      },
    },
    io,
  );
}
