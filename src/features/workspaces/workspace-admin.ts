import type { Workspace } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import { CLI_ACTOR, NO_AUDIT, type RecordAudit } from '../../core/moderation.ts';
import type { AccountStore, WorkspaceStore } from '../../core/ports/store.ts';
import { isTimeZone } from '../../core/time-zone.ts';
import { isWorkspaceSlug } from '../../core/workspace-slug.ts';
import { type Auditor, auditFact } from './audit-actor.ts';

/** Workspaces themselves (docs/api.md §11): made by the operator, named by their admins. */

export const WORKSPACE_NAME_MAX = 100;

export type WorkspaceAdminStore = Pick<
  AccountStore & WorkspaceStore,
  | 'createWorkspace'
  | 'findWorkspaceBySlug'
  | 'listWorkspaces'
  | 'renameWorkspace'
  | 'setWorkspaceTimezone'
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

/** An IANA time zone this runtime knows, or `UTC` (docs/api.md §18); anything else is 300. */
export function workspaceTimezone(value: unknown): string {
  if (!isTimeZone(value)) {
    throw new Refusal(
      '300',
      'The time zone is not one this Snip knows: an IANA name such as Europe/Paris, or UTC.',
    );
  }
  return value;
}

/**
 * Each change is recorded in the audit log (`audit`, none by default): workspace.create,
 * workspace.rename and workspace.timezone, the slug the target.
 */
export function workspaceAdmin(store: WorkspaceAdminStore, audit: RecordAudit = NO_AUDIT) {
  return {
    async bySlug(slug: string): Promise<Workspace> {
      const workspace = await store.findWorkspaceBySlug(slug.trim().toLowerCase());
      if (!workspace) throw new Refusal('no-such-workspace', `no workspace "${slug}"`);
      return workspace;
    },

    /** A team workspace with its first owner, on a plan (the sign-up plan when none is named). */
    async create(
      slug: string,
      ownerEmail: string,
      planName: string,
      name?: string,
      by: Auditor = CLI_ACTOR,
    ): Promise<Workspace> {
      if (!isWorkspaceSlug(slug)) throw new Refusal('workspace-slug-invalid');
      const owner = await store.findUserByEmail(ownerEmail.trim().toLowerCase());
      if (!owner) throw new Refusal('no-such-account', `no user with email "${ownerEmail}"`);
      const plan = await store.findPlanByName(planName);
      if (!plan) throw new Refusal('no-such-plan', `no plan named "${planName}"`);
      const result = await store.createWorkspace(slug, workspaceName(name ?? slug), plan.id, owner.id);
      if (result.kind === 'slug-taken') throw new Refusal('workspace-slug-taken');
      const made = result.workspace;
      const after = { name: made.name, plan: plan.name, owner: owner.email };
      await audit({ ...by, ...auditFact(made.id, 'workspace.create', made.slug, null, after) });
      return made;
    },

    list: (): Promise<Workspace[]> => store.listWorkspaces(),

    async rename(workspace: Workspace, name: unknown, by: Auditor): Promise<void> {
      const next = workspaceName(name);
      await store.renameWorkspace(workspace.id, next);
      if (next === workspace.name) return;
      const fact = auditFact(
        workspace.id,
        'workspace.rename',
        workspace.slug,
        { name: workspace.name },
        { name: next },
      );
      await audit({ ...by, ...fact });
    },

    /** The workspace with its new time zone (unchanged when it already had it). */
    async setTimezone(workspace: Workspace, zone: unknown, by: Auditor): Promise<Workspace> {
      const next = workspaceTimezone(zone);
      if (next === workspace.timezone) return workspace;
      await store.setWorkspaceTimezone(workspace.id, next);
      const before = { timezone: workspace.timezone };
      await audit({
        ...by,
        ...auditFact(workspace.id, 'workspace.timezone', workspace.slug, before, { timezone: next }),
      });
      return { ...workspace, timezone: next };
    },
  };
}

export type WorkspaceAdmin = ReturnType<typeof workspaceAdmin>;
