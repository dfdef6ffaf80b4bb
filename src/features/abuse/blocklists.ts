import {
  type HostRule,
  hostRule,
  type ParsedBlocklist,
  parseBlocklist,
} from '../../core/blocklist-format.ts';
import { Refusal } from '../../core/errors.ts';
import { ABUSE_CHANGED } from '../../core/link-key.ts';
import { type Blocklist, MANUAL_BLOCKLIST } from '../../core/moderation.ts';
import type { BlocklistStore } from '../../core/ports/abuse-store.ts';
import type { LinkEvents } from '../../core/ports/shared-state.ts';
import type { AuditActor, AuditLog } from './audit-log.ts';
import type { AbuseScreen } from './screen.ts';

const LIST_NAME = /^[a-z0-9][a-z0-9._-]{0,59}$/;

/** A list's name as an operator gives it. */
export function checkListName(name: string): string {
  const trimmed = name.trim().toLowerCase();
  if (!LIST_NAME.test(trimmed)) throw new Refusal('blocklist-name-invalid');
  return trimmed;
}

/** The name a list refreshed from an address is kept under: its host and path, as a name may be spelt. */
export function listNameOf(url: string): string {
  const parsed = URL.parse(url);
  const words = parsed ? `${parsed.hostname}${parsed.pathname}` : url;
  const name = words
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+|-+$/g, '');
  return name.slice(0, 60) || 'list';
}

/** What an import did: the list as stored, and the file's account of its lines. */
export interface ImportOutcome {
  list: Blocklist;
  parsed: Omit<ParsedBlocklist, 'rules'>;
}

export interface BlocklistOptions {
  store: BlocklistStore;
  linkEvents: Pick<LinkEvents, 'changed'>;
  audit: AuditLog;
  /** This instance's screen, read again at once after a change (the command line has none). */
  screen?: Pick<AbuseScreen, 'refresh' | 'ruleCount'>;
  /** Fetches a list from BLOCKLIST_URLS through the SSRF-safe fetcher. */
  fetchList: (url: string) => Promise<string>;
}

/**
 * The operators' blocklists (docs/api.md §13): imported from a file, refreshed from an address, or
 * added one host at a time. Every change raises the lists' version and is announced, so every
 * instance reads the rules again; this one before the change is answered.
 */
export function blocklistService(options: BlocklistOptions) {
  const { store, audit, screen } = options;
  const changed = async () => {
    await options.linkEvents.changed(ABUSE_CHANGED);
    await screen?.refresh();
  };

  async function importText(actor: AuditActor, name: string, text: string, source: string | null) {
    const listName = checkListName(name);
    const { rules, ...parsed } = parseBlocklist(text);
    const list = await store.replaceBlocklist(listName, source, rules, parsed.skipped);
    await changed();
    await audit.record(actor, {
      workspaceId: null,
      action: 'blocklist.import',
      target: listName,
      after: { rules: list.ruleCount, lines: parsed.lines, skipped: parsed.skipped, source },
    });
    return { list, parsed } satisfies ImportOutcome;
  }

  function ruleOf(input: string): HostRule {
    const rule = hostRule(input.trim());
    if (!rule) throw new Refusal('host-invalid');
    return rule;
  }

  return {
    list: () => store.listBlocklists(),
    /** Rules in force on this instance. */
    ruleCount: () => screen?.ruleCount ?? 0,
    importText,
    /** Adds one rule ("evil.example" blocks its subdomains too; a hosts-file style exact host is not typed by hand). */
    async add(actor: AuditActor, input: string, exact = false): Promise<{ rule: HostRule; added: boolean }> {
      const parsed = ruleOf(input);
      const rule = exact ? { host: parsed.host, subdomains: false } : parsed;
      const added = await store.addBlockRule(MANUAL_BLOCKLIST, rule);
      if (added) {
        await changed();
        await audit.record(actor, {
          workspaceId: null,
          action: 'blocklist.add',
          target: rule.host,
          after: { ...rule },
        });
      }
      return { rule, added };
    },
    /** Removes a host's rules from every list (a list refreshed from an address brings it back). */
    async remove(actor: AuditActor, input: string): Promise<{ host: string; removed: number }> {
      const { host } = ruleOf(input);
      const removed = await store.removeBlockRule(host);
      if (removed > 0) {
        await changed();
        await audit.record(actor, {
          workspaceId: null,
          action: 'blocklist.remove',
          target: host,
          before: { rules: removed },
        });
      }
      return { host, removed };
    },
    async deleteList(actor: AuditActor, name: string): Promise<void> {
      const listName = checkListName(name);
      if (!(await store.deleteBlocklist(listName))) throw new Refusal('no-such-blocklist');
      await changed();
      await audit.record(actor, { workspaceId: null, action: 'blocklist.delete', target: listName });
    },
    /**
     * Fetches and imports each address whose list is older than `keepMs` (any instance may have
     * refreshed it); one that fails keeps its last rules and is reported.
     */
    async refresh(actor: AuditActor, urls: readonly string[], keepMs = 0) {
      const stale = staleUrls(await store.listBlocklists(), urls, keepMs);
      return refreshLists(options.fetchList, importText, actor, stale);
    },
  };
}

/** The addresses whose list is missing or older than `keepMs`. */
function staleUrls(lists: readonly Blocklist[], urls: readonly string[], keepMs: number): string[] {
  const fresh = (url: string) =>
    lists.some(
      (list) =>
        list.source === url &&
        list.name === listNameOf(url) &&
        Date.now() - list.updatedAt.getTime() < keepMs,
    );
  return urls.filter((url) => !fresh(url));
}

type ImportText = (
  actor: AuditActor,
  name: string,
  text: string,
  source: string | null,
) => Promise<ImportOutcome>;

async function refreshLists(
  fetchList: (url: string) => Promise<string>,
  importText: ImportText,
  actor: AuditActor,
  urls: readonly string[],
) {
  const results: Array<{ url: string; outcome?: ImportOutcome; error?: string }> = [];
  for (const url of urls) {
    try {
      const text = await fetchList(url);
      results.push({ url, outcome: await importText(actor, listNameOf(url), text, url) });
    } catch (error) {
      results.push({ url, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return results;
}

export type BlocklistService = ReturnType<typeof blocklistService>;
