import type { Workspace } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import type { Store } from '../../core/ports/store.ts';
import { isWorkspaceSlug } from '../../core/workspace-slug.ts';

/** Workspaces themselves (docs/api.md §11): made by the operator, named by their admins. */

export const WORKSPACE_NAME_MAX = 100;

export type WorkspaceAdminStore = Pick<
  Store,
  | 'createWorkspace'
  | 'findWorkspaceBySlug'
  | 'listWorkspaces'
  | 'renameWorkspace'
  | 'findPlanByName'
  | 'findUserByEmail'
>;

const isControl = (ch: string) => {
  const code = ch.codePointAt(0) ?? 0;
  return code < 0x20 || code === 0x7f;
};

export function workspaceName(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (name === '' || [...name].length > WORKSPACE_NAME_MAX || [...name].some(isControl)) {
    throw new Refusal('workspace-name-invalid');
  }
  return name;
}

export function workspaceAdmin(store: WorkspaceAdminStore) {
  return {
    async bySlug(slug: string): Promise<Workspace> {
      const workspace = await store.findWorkspaceBySlug(slug.trim().toLowerCase());
      if (!workspace) throw new Refusal('no-such-workspace', `no workspace "${slug}"`);
      return workspace;
    },

    /** A team workspace with its first owner, on a plan (the sign-up plan when none is named). */
    async create(slug: string, ownerEmail: string, planName: string, name?: string): Promise<Workspace> {
      if (!isWorkspaceSlug(slug)) throw new Refusal('workspace-slug-invalid');
      const owner = await store.findUserByEmail(ownerEmail.trim().toLowerCase());
      if (!owner) throw new Refusal('no-such-account', `no user with email "${ownerEmail}"`);
      const plan = await store.findPlanByName(planName);
      if (!plan) throw new Refusal('no-such-plan', `no plan named "${planName}"`);
      const result = await store.createWorkspace(slug, workspaceName(name ?? slug), plan.id, owner.id);
      if (result.kind === 'slug-taken') throw new Refusal('workspace-slug-taken');
      return result.workspace;
    },

    list: (): Promise<Workspace[]> => store.listWorkspaces(),

    async rename(workspace: Workspace, name: unknown): Promise<void> {
      await store.renameWorkspace(workspace.id, workspaceName(name));
    },
  };
}

export type WorkspaceAdmin = ReturnType<typeof workspaceAdmin>;
