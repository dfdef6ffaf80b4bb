import type { Actor } from '../../core/entities.ts';
import type { WindowCounter } from '../../core/ports/shared-state.ts';
import type { LinkResource } from './api/link-schemas.ts';
import type { LinksApi } from './api/links-api.ts';
import type { CreateLinkFor, LinkEditor } from './link-requests.ts';

/**
 * Many links at once (docs/api.md §16): up to 100 creates, edits or deletes in one request, each
 * item checked, counted in the hourly window and quota'd as one request of its own, its answer at
 * its index. Shared by POST|PATCH|DELETE /api/v1/links/bulk and the dashboard's bulk create.
 */

/** An item's refusal, as a problem object with Snip's numbered code. */
export interface BulkProblem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
}

export type BulkItem = { index: number; link: LinkResource } | { index: number; error: BulkProblem };

export interface BulkLinksDeps {
  /** The /api/v1 links as resources (get, remove, resource of a link). */
  api: LinksApi;
  /** A create with every check from the window on (the window spent per item). */
  createFor: CreateLinkFor;
  editor: LinkEditor;
  counter: WindowCounter;
  now: () => number;
}

export interface BulkLinks {
  /** `items`: the bodies of POST /api/v1/links. */
  create(actor: Actor, items: readonly unknown[], clientAddress: string): Promise<BulkItem[]>;
  /** `codes` each changed by `change` (any field of PATCH /api/v1/links/{code}). */
  edit(actor: Actor, codes: readonly unknown[], change: unknown, domain?: string): Promise<BulkItem[]>;
  remove(actor: Actor, codes: readonly unknown[], domain?: string): Promise<BulkItem[]>;
}

export function bulkLinks(_deps: BulkLinksDeps): BulkLinks {
  const none = async (): Promise<BulkItem[]> => {
    throw new Error('bulk links: not built yet');
  };
  return { create: none, edit: none, remove: none };
}
