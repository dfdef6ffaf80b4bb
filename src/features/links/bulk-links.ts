import type { Actor, Group } from '../../core/entities.ts';
import { type RateState, Refusal } from '../../core/errors.ts';
import type { WindowCounter } from '../../core/ports/shared-state.ts';
import type { GroupStore } from '../../core/ports/store.ts';
import type { AddressedDomain } from '../domains/index.ts';
import { groupOrRefuse } from '../groups/index.ts';
import type { CreateLinkBodyType } from './api/link-schemas.ts';
import type { LinksApi } from './api/links-api.ts';
import { changeOf, codeOf, contendedKeys, createBodyOf, MAX_BULK_ITEMS, targetHost } from './bulk-checks.ts';
import { type BulkItem, type BulkTask, runTasks, spendInOrder, taskOf } from './bulk-run.ts';

/**
 * Many links at once (docs/api.md §16): up to 100 creates, edits or deletes in one request, each
 * item checked, counted in the hourly window and quota'd as one request of its own, its answer at
 * its index. Shared by POST|PATCH|DELETE /api/v1/links/bulk and the dashboard's bulk create.
 */

export type { BulkProblem } from './bulk-checks.ts';
export type { BulkItem } from './bulk-run.ts';

export interface BulkLinksDeps {
  /** The /api/v1 links as resources: each item is created, changed or deleted as a single request is. */
  api: LinksApi;
  /** The hourly window each item spends. */
  counter: WindowCounter;
  /** The domain a bulk edit or delete names (317 for one the workspace does not see), its default without. */
  domainOf: AddressedDomain;
  now: () => number;
  /** The workspace's groups, so that a row may name its group by name as well (docs/api.md §16). */
  groups: Pick<GroupStore, 'findGroupOfWorkspace' | 'listGroups'>;
}

/** How the caller took part in the window, and what it wants told. */
export interface BulkOptions {
  /**
   * The request already spent one unit of the window (the management API's key check): it is the
   * first item's, so n items cost n units in all, as n single requests would.
   */
  firstSpent?: boolean;
  /** The window after the items spent theirs (for RateLimit-*); not called when none spent any. */
  onRate?: (rate: RateState) => void;
  /** An item failed on a fault, not a refusal (its answer is a 500 problem): for the log. */
  onFault?: (error: unknown, index: number) => void;
}

export interface BulkLinks {
  /** `items`: the bodies of POST /api/v1/links. */
  create(
    actor: Actor,
    items: readonly unknown[],
    clientAddress: string,
    options?: BulkOptions,
  ): Promise<BulkItem[]>;
  /** `codes` each changed by `change` (any field of PATCH /api/v1/links/{code}). */
  edit(
    actor: Actor,
    codes: readonly unknown[],
    change: unknown,
    domain?: string,
    options?: BulkOptions,
  ): Promise<BulkItem[]>;
  /** `codes` each deleted; an item's link is the link as it was. */
  remove(
    actor: Actor,
    codes: readonly unknown[],
    domain?: string,
    options?: BulkOptions,
  ): Promise<BulkItem[]>;
}

function refuseTooMany(list: readonly unknown[]): void {
  if (list.length > MAX_BULK_ITEMS) {
    throw new Refusal('300', `A bulk request names at most ${MAX_BULK_ITEMS} items.`);
  }
}

/** A group found, or the refusal that names what a row asked for (a refusal of its own, 312). */
type FoundGroup = Group | Refusal;

export function bulkLinks(deps: BulkLinksDeps): BulkLinks {
  const { api } = deps;

  /**
   * One row of a bulk create. Its group may be an ID, an API identifier or a name (as `snip link
   * import` reads a file; an ID or identifier wins over a name that reads the same): a name becomes
   * the group's ID. A group none of these finds is still refused where a single create refuses it
   * (after the url's checks), with the refusal that says all three were tried.
   */
  async function createRow(
    actor: Actor,
    body: CreateLinkBodyType,
    clientAddress: string,
    found: FoundGroup | undefined,
  ) {
    if (found === undefined) return api.create(actor, body, clientAddress);
    if (!(found instanceof Refusal)) return api.create(actor, { ...body, group: found.id }, clientAddress);
    try {
      return await api.create(actor, body, clientAddress);
    } catch (error) {
      throw error instanceof Refusal && error.code === '312' ? found.with(error.facts) : error;
    }
  }

  /** The groups the rows of one request name, each looked up once. */
  function groupsOfRows(actor: Actor) {
    const known = new Map<string, Promise<FoundGroup>>();
    return (ref: string | number | undefined): Promise<FoundGroup | undefined> => {
      if (ref === undefined) return Promise.resolve(undefined);
      const key = String(ref).trim().toLowerCase();
      let found = known.get(key);
      if (!found) {
        found = groupOrRefuse(deps.groups, actor.workspaceId, String(ref), deps.groups).catch((error) => {
          if (error instanceof Refusal) return error;
          throw error;
        });
        known.set(key, found);
      }
      return found;
    };
  }

  /** The window spent by `count` items; the refusal of each past it. */
  async function spend(actor: Actor, count: number, options: BulkOptions) {
    const spent = await spendInOrder(deps.counter, actor, count, options.firstSpent ? 1 : 0, deps.now);
    if (spent.rate) options.onRate?.(spent.rate);
    return spent.refused;
  }

  /** A task for each code: its address checked (300), the same code twice never at once. */
  async function forCodes(
    actor: Actor,
    codes: readonly unknown[],
    domain: string | undefined,
    options: BulkOptions,
    task: (code: string) => Extract<BulkTask, { run: unknown }>,
  ): Promise<BulkItem[]> {
    refuseTooMany(codes);
    // A domain the workspace does not see is the whole request's 317, before any item spends.
    deps.domainOf(actor.workspaceId, domain);
    const refused = await spend(actor, codes.length, options);
    const tasks = codes.map((raw, index) =>
      taskOf(refused[index], () => {
        const code = codeOf(raw);
        const made = task(code);
        return { ...made, keys: [`code ${code}`, ...made.keys] };
      }),
    );
    return runTasks(tasks, options.onFault);
  }

  return {
    async create(actor, items, clientAddress, options = {}) {
      refuseTooMany(items);
      const refused = await spend(actor, items.length, options);
      const groupOf = groupsOfRows(actor);
      const tasks = items.map((raw, index) =>
        taskOf(refused[index], () => {
          const body = createBodyOf(raw);
          return {
            host: targetHost(body.url, body.utm),
            keys: contendedKeys(body),
            run: async () => createRow(actor, body, clientAddress, await groupOf(body.group)),
          };
        }),
      );
      return runTasks(tasks, options.onFault);
    },

    async edit(actor, codes, change, domain, options = {}) {
      const patch = changeOf(change);
      // A change of target fetches the new one (bounded per its host); a utm alone refetches the
      // link's current target, whose host is not known before the link is read: the bound of all only.
      const host = targetHost(patch.url, patch.utm);
      // One new url for many links: the first takes it, the others read 305, in index order.
      const keys = patch.url === undefined ? [] : ['url'];
      return forCodes(actor, codes, domain, options, (code) => ({
        host,
        keys,
        run: () => api.patch(actor, { code, domain }, patch),
      }));
    },

    async remove(actor, codes, domain, options = {}) {
      return forCodes(actor, codes, domain, options, (code) => ({
        host: undefined,
        keys: [],
        run: async () => {
          const link = await api.get(actor, { code, domain });
          await api.remove(actor, { code, domain });
          return link;
        },
      }));
    },
  };
}
