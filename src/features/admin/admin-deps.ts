import type { AbuseStore } from '../../core/ports/abuse-store.ts';
import type { ConsoleStore } from '../../core/ports/console-store.ts';
import type { AccountStore, WorkspaceStore } from '../../core/ports/store.ts';
import type { LinkOrigins } from '../../core/short-url.ts';
import type { SignedIn } from '../../web/session/session-cookie.ts';
import type { WorkspaceDeps } from '../../web/session/workspace-pages.ts';
import type { AbuseServices, AuditActor } from '../abuse/index.ts';

/** What the operator console's pages are built on: the abuse services, the store's searches and the short URLs' origins. */
export interface AdminPageOptions extends WorkspaceDeps {
  abuse: Pick<AbuseServices, 'takedowns' | 'blocklists' | 'reports' | 'audit'>;
  store: ConsoleStore &
    Pick<
      AbuseStore & AccountStore & WorkspaceStore,
      | 'searchLinks'
      | 'searchUsers'
      | 'searchWorkspaces'
      | 'findWorkspaceById'
      | 'findWorkspaceBySlug'
      | 'listPlans'
      | 'setWorkspacePlan'
    >;
  /** Where each domain's short URLs start, to show a link's short URL. */
  origins: LinkOrigins;
  /** Whether a host is one Snip serves short links on (a short URL typed into the link search). */
  isOwnHost: (host: string) => boolean;
  /** Each workspace's broken links by workspace id (docs/api.md §21, one store read); absent: no such column. */
  brokenLinks?: (workspaceIds: readonly number[]) => Promise<ReadonlyMap<number, number>>;
}

/** A signed-in operator as the audit log names them. */
export function actorOf(user: SignedIn): AuditActor {
  return { actorId: user.user.id, actor: user.user.email };
}

/** At most this many rows a search or a page of the log shows. */
export const PAGE_ROWS = 100;

/** Workspaces by id, each read once, for the rows of a page that name one (links, the audit log). */
export async function workspaceSlugs(
  store: Pick<WorkspaceStore, 'findWorkspaceById'>,
  ids: Iterable<number | null>,
): Promise<Map<number, string>> {
  const slugs = new Map<number, string>();
  for (const id of new Set(ids)) {
    if (id === null) continue;
    const workspace = await store.findWorkspaceById(id);
    if (workspace) slugs.set(id, workspace.slug);
  }
  return slugs;
}
