import { scopesOfRole } from '../../../core/authorization.ts';
import type { Member, Workspace } from '../../../core/entities.ts';
import { Refusal } from '../../../core/errors.ts';
import { CLI_ACTOR } from '../../../core/moderation.ts';
import { isScope, type Scope } from '../../../core/scopes.ts';
import type { StoreOf } from '../../../kernel/feature.ts';
import { type CommandCode, tab, UsageError } from '../../../terminal/command.ts';
import { apiAccess } from '../api-access.ts';
import { cliAudit } from '../audit-actor.ts';
import { membersService, OPERATOR } from '../members.ts';
import { workspaceAdmin } from '../workspace-admin.ts';
import { workspaceJson } from './account-json.ts';
import { accountOperations, personalWorkspace } from './account-operations.ts';
import type { WORKSPACE_FLAGS } from './workspace-usage.ts';

/** `snip workspace …`, `snip member …` and `snip key create` (docs/api.md §11). */

type WorkspaceCommand = CommandCode<
  typeof WORKSPACE_FLAGS,
  StoreOf<'accounts' | 'workspaces' | 'keys' | 'sessions' | 'audit'>
>;

const memberJson = (workspace: Workspace, member: Member) => ({
  workspace: workspace.slug,
  email: member.email,
  role: member.role,
  joined_at: member.joinedAt.toISOString(),
});

function scopesFrom(text: string | undefined): Scope[] | undefined {
  if (text === undefined) return undefined;
  const words = text
    .split(',')
    .map((word) => word.trim())
    .filter((word) => word !== '');
  const unknown = words.filter((word) => !isScope(word));
  if (unknown.length > 0) throw new UsageError(`--scopes: not a scope: ${unknown.join(', ')}`);
  if (words.length === 0) throw new UsageError('--scopes: name at least one scope');
  return words as Scope[];
}

export const WORKSPACE_COMMANDS: Record<string, WorkspaceCommand> = {
  'workspace create': {
    run: async ({ args: [slug = ''], values, store, io }) => {
      if (!values.owner) throw new UsageError('workspace create needs --owner <email>');
      const plan = values.plan ?? (await personalWorkspace(store, values.owner)).plan.name;
      const admin = workspaceAdmin(store, cliAudit(store, io.err));
      const workspace = await admin.create(slug, values.owner, plan, values.name);
      return { ...workspaceJson(workspace), owner: values.owner.trim().toLowerCase() };
    },
  },
  'workspace list': {
    line: (w) => tab(w.slug, w.name, w.plan, w.personal ? 'personal' : 'team'),
    run: async ({ store }) => ({ items: (await workspaceAdmin(store).list()).map(workspaceJson) }),
  },
  'workspace plan': {
    run: async ({ args: [slug = '', plan = ''], store, io }) => {
      const workspace = await workspaceAdmin(store).bySlug(slug);
      const before = workspace.plan.name;
      const after = await accountOperations(store, cliAudit(store, io.err)).putOnPlan(workspace, plan);
      return { workspace: after.slug, plan: after.plan.name, previous_plan: before };
    },
  },
  'member add': {
    run: async ({ args: [slug = '', email = ''], values, store, io }) => {
      if (!values.role) throw new UsageError('member add needs --role <owner|admin|member|viewer>');
      const workspace = await workspaceAdmin(store).bySlug(slug);
      const members = membersService(store, cliAudit(store, io.err));
      return memberJson(workspace, await members.add(workspace, email, values.role));
    },
  },
  'member remove': {
    run: async ({ args: [slug = '', email = ''], store, io }) => {
      const workspace = await workspaceAdmin(store).bySlug(slug);
      await membersService(store, cliAudit(store, io.err)).remove(workspace, OPERATOR, email);
      return { workspace: workspace.slug, email: email.trim().toLowerCase() };
    },
  },
  'key create': {
    run: async ({ args: [slug = ''], values, store, io }) => {
      if (!values.by) throw new UsageError('key create needs --by <email>');
      const workspace = await workspaceAdmin(store).bySlug(slug);
      const { user, role } = await membersService(store).memberOf(workspace, values.by);
      const scopes = scopesFrom(values.scopes) ?? scopesOfRole(role);
      if (scopes.length === 0) throw new Refusal('forbidden', `a ${role} makes no keys`);
      const name = values.name ?? 'CLI key';
      // The operator makes it in the member's name: the key is theirs, the act the command line's.
      const maker = { userId: user.id, role, by: CLI_ACTOR };
      const key = await apiAccess(store, cliAudit(store, io.err)).add(workspace, maker, name, scopes);
      return { workspace: workspace.slug, by: user.email, name, scopes, api_key: key };
    },
  },
};
