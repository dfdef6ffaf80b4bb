import { ruleHost } from '../../core/blocklist-format.ts';
import { HostRuleSet } from '../../core/host-rules.ts';
import type { BlocklistStore, ModerationStore } from '../../core/ports/abuse-store.ts';

/**
 * Rules read from the store per query while the set is (re)built: small pages die young, so loading
 * 1M rules leaves the old generation of the heap as it was.
 */
const PAGE = 5_000;

/** A cached link as the screen sees it, with the answer it remembers for a set of rules. */
export interface ScreenedLink {
  workspaceId: number;
  hosts: readonly string[];
  screenedUnder?: number;
  blocked?: boolean;
}

type ScreenStore = Pick<BlocklistStore, 'abuseVersions' | 'blockRulesAfter'> &
  Pick<ModerationStore, 'suspendedWorkspaceIds'>;

/**
 * What takes links down besides their own state (docs/api.md §13), held in memory by every
 * instance: the blocklists' host rules (a compact set: core/host-rules.ts) and the suspended
 * workspaces. The redirect asks it on every request, so asking costs a few hash probes, and
 * nothing at all while there are no rules and no suspensions. Two versions in the store say what
 * moved (polled every second, and read at once on every change heard): the rules are read again
 * only when theirs did; a takedown made anywhere (even by the command line, without Redis)
 * makes the redirect forget its cached links.
 */
export class AbuseScreen {
  #store: ScreenStore;
  #rules: HostRuleSet = HostRuleSet.EMPTY;
  /** Raised each time another set of rules is in force: what a link's remembered answer was for. */
  #generation = 0;
  #rulesVersion = -1;
  #takedownsVersion = -1;
  #suspended: ReadonlySet<number> = new Set();
  #onTakedown: () => void = () => {};
  #refreshing: Promise<void> | undefined;
  /** Some rule or suspension is in force: when false the redirect asks nothing more. */
  active = false;

  constructor(store: ScreenStore) {
    this.#store = store;
  }

  /** How many host rules are in force. */
  get ruleCount(): number {
    return this.#rules.size;
  }

  /** Reads the suspensions, and the rules when they changed; concurrent calls share one read. */
  refresh(): Promise<void> {
    this.#refreshing ??= this.#read().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  /** Called when a takedown was made anywhere (the command line, another instance): cached links may be stale. */
  onTakedown(handler: () => void): void {
    this.#onTakedown = handler;
  }

  async #read(): Promise<void> {
    const versions = await this.#store.abuseVersions();
    if (versions.takedowns !== this.#takedownsVersion) {
      this.#suspended = new Set(await this.#store.suspendedWorkspaceIds());
      if (this.#takedownsVersion !== -1) this.#onTakedown();
      this.#takedownsVersion = versions.takedowns;
    }
    if (versions.rules !== this.#rulesVersion) {
      this.#rules = await this.#loadRules();
      this.#generation++;
      this.#rulesVersion = versions.rules;
    }
    this.active = this.#rules.size > 0 || this.#suspended.size > 0;
  }

  async #loadRules(): Promise<HostRuleSet> {
    const rules = new HostRuleSet();
    let after = 0;
    for (;;) {
      const page = await this.#store.blockRulesAfter(after, PAGE);
      for (const rule of page) rules.add(rule.host, rule.subdomains);
      const last = page.at(-1);
      if (last === undefined || page.length < PAGE) break;
      after = last.id;
    }
    return rules.size > 0 ? rules : HostRuleSet.EMPTY;
  }

  /** A URL's hostname (as `new URL()` gives it) is blocked, or a parent domain of it. */
  blocksHost(hostname: string): boolean {
    if (this.#rules.size === 0) return false;
    const host = ruleHost(hostname);
    return host !== undefined && this.#rules.matches(host);
  }

  /**
   * The redirect's question: the link's workspace is suspended, or one of its target hosts (ruleHost
   * form) is blocked. The hosts' answer is remembered on the link for the rules in force, so a hot
   * link costs the look-ups once per change of the rules, not once per visit.
   */
  withholds(link: ScreenedLink): boolean {
    if (this.#suspended.size > 0 && this.#suspended.has(link.workspaceId)) return true;
    const rules = this.#rules;
    if (rules.size === 0) return false;
    if (link.screenedUnder !== this.#generation) {
      link.blocked = link.hosts.some((host) => rules.matches(host));
      link.screenedUnder = this.#generation;
    }
    return link.blocked === true;
  }

  isSuspended(workspaceId: number): boolean {
    return this.#suspended.has(workspaceId);
  }
}
