import type { Actor } from '../../core/entities.ts';
import { type RateState, Refusal } from '../../core/errors.ts';
import type { WindowCounter } from '../../core/ports/shared-state.ts';
import { spendWindow, workspaceRateWindow } from '../../core/rate-window.ts';
import type { LinkResource } from './api/link-schemas.ts';
import { type BulkProblem, itemProblem } from './bulk-checks.ts';
import { BULK_SLOTS, hostSlots } from './bulk-limiter.ts';

/**
 * How the items of one bulk request run (docs/api.md §16): each spends the hourly window as a
 * request of its own, in index order and before any runs, so the items past the window are the
 * last ones whatever the order the others end in; then each runs on its own (a create or an edit
 * of its own, nothing shared with the others), bounded by BULK_SLOTS, its answer at its index.
 */

export type BulkItem = { index: number; link: LinkResource } | { index: number; error: BulkProblem };

/** What an item does, or why it does nothing (the window, its shape). */
export type BulkTask =
  | { error: unknown }
  | {
      /** Its target's host, whose fetches are bounded; undefined: only the bound of all. */
      host: string | undefined;
      /** What it must not race an earlier item for (bulk-checks.ts contendedKeys). */
      keys: readonly string[];
      run: () => Promise<LinkResource>;
    };

/** The window after items spent theirs, and the 429 of each item past it. */
export interface SpentWindow {
  /** By index: the refusal of an item past the window; undefined for one within it. */
  refused: readonly (Refusal | undefined)[];
  /** The window after the last spend; undefined when no item spent any. */
  rate: RateState | undefined;
}

/**
 * One unit of the account's window per item, in index order; the first `alreadySpent` were spent by
 * the request itself. Once the window is spent the items after answer its 429 without counting more.
 */
export async function spendInOrder(
  counter: WindowCounter,
  actor: Actor,
  count: number,
  alreadySpent: number,
  now: () => number,
): Promise<SpentWindow> {
  const refused: (Refusal | undefined)[] = new Array(count).fill(undefined);
  const window = workspaceRateWindow(actor);
  let rate: RateState | undefined;
  for (let index = alreadySpent; index < count; index++) {
    try {
      rate = await spendWindow(counter, window, now());
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      rate = error.facts.rate;
      refused.fill(error, index);
      break;
    }
  }
  return { refused, rate };
}

/** The task of an item within the window: `make` reads it (a refusal of its shape is its answer). */
export function taskOf(refused: Refusal | undefined, make: () => BulkTask): BulkTask {
  if (refused) return { error: refused };
  try {
    return make();
  } catch (error) {
    return { error };
  }
}

/** Every task run, at most BULK_SLOTS at once; the answers in index order. */
export function runTasks(
  tasks: readonly BulkTask[],
  onFault?: (error: unknown, index: number) => void,
): Promise<BulkItem[]> {
  const slots = hostSlots(BULK_SLOTS);
  const latest = new Map<string, Promise<LinkResource>>();
  return Promise.all(
    tasks.map(async (task, index): Promise<BulkItem> => {
      try {
        if ('error' in task) throw task.error;
        const earlier = task.keys.flatMap((key) => latest.get(key) ?? []);
        const done = Promise.allSettled(earlier).then(() => slots.run(task.host, task.run));
        // Set before this item's first await, so the next item sees it: the keys chain in index order.
        for (const key of task.keys) latest.set(key, done);
        return { index, link: await done };
      } catch (error) {
        const { problem, fault } = itemProblem(error);
        if (fault) onFault?.(error, index);
        return { index, error: problem };
      }
    }),
  );
}
