import { scopesOfRole } from '../../../core/authorization.ts';
import type { Member, Workspace } from '../../../core/entities.ts';
import { Refusal } from '../../../core/errors.ts';
import { CLI_ACTOR } from '../../../core/moderation.ts';
import type { Store } from '../../../core/ports/store.ts';
import { isScope, type Scope } from '../../../core/scopes.ts';
import { type Command, tab, UsageError } from '../../../terminal/command.ts';
import { apiAccess } from '../api-access.ts';
import { cliAudit } from '../audit-actor.ts';
import { membersService, OPERATOR } from '../members.ts';
import { workspaceAdmin } from '../workspace-admin.ts';
import { workspaceJson } from './account-json.ts';
import { accountOperations, personalWorkspace } from './account-operations.ts';

/** `snip workspace …`, `snip member …` and `snip key create` (docs/api.md §11). */

export const WORKSPACE_FLAGS = {
  owner: { type: 'string' },
  plan: { type: 'string' },
  name: { type: 'string' },
  role: { type: 'string' },
  by: { type: 'string' },
  scopes: { type: 'string' },
} as const;

type WorkspaceCommand = Command<typeof WORKSPACE_FLAGS, { store: Store }>;

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
    synopsis: '<slug> --owner <email> [--plan P] [--name N]',
    about: 'creates a team workspace with its first owner',
    details: `  --owner <email>   an existing user, the workspace's first owner (required)
  --plan P          the workspace's plan; by default the plan of the owner's personal workspace
  --name N          what the pages call it; by default the slug
The slug is its address, /w/<slug>: 1-40 lower-case letters, digits and inner hyphens.`,
    flags: ['owner', 'plan', 'name'],
    args: 1,
    run: async ({ args: [slug = ''], values, store, io }) => {
      if (!values.owner) throw new UsageError('workspace create needs --owner <email>');
      const plan = values.plan ?? (await personalWorkspace(store, values.owner)).plan.name;
      const admin = workspaceAdmin(store, cliAudit(store, io.err));
      const workspace = await admin.create(slug, values.owner, plan, values.name);
      return { ...workspaceJson(workspace), owner: values.owner.trim().toLowerCase() };
    },
  },
  'workspace list': {
    synopsis: '',
    about: 'lists the workspaces, oldest first',
    details: `One line per workspace: slug, name, plan, personal or team.
--json prints {"items": [{id, slug, name, plan, personal, created_at}, ...]}.`,
    flags: [],
    args: 0,
    line: (w) => tab(w.slug, w.name, w.plan, w.personal ? 'personal' : 'team'),
    run: async ({ store }) => ({ items: (await workspaceAdmin(store).list()).map(workspaceJson) }),
  },
  'workspace plan': {
    synopsis: '<slug> <plan>',
    about: "puts a workspace, personal or a team's, on a plan",
    details: `Its links and keys stay: over the new quota, new links are refused (304); without API
access, its keys answer 303 until the plan has it again. The change is in the audit log.`,
    flags: [],
    args: 2,
    run: async ({ args: [slug = '', plan = ''], store, io }) => {
      const workspace = await workspaceAdmin(store).bySlug(slug);
      const before = workspace.plan.name;
      const after = await accountOperations(store, cliAudit(store, io.err)).putOnPlan(workspace, plan);
      return { workspace: after.slug, plan: after.plan.name, previous_plan: before };
    },
  },
  'member add': {
    synopsis: '<workspace> <email> --role R',
    about: 'adds an existing user to a workspace with a role',
    details: '  --role R          owner, admin, member or viewer (required)',
    flags: ['role'],
    args: 2,
    run: async ({ args: [slug = '', email = ''], values, store, io }) => {
      if (!values.role) throw new UsageError('member add needs --role <owner|admin|member|viewer>');
      const workspace = await workspaceAdmin(store).bySlug(slug);
      const members = membersService(store, cliAudit(store, io.err));
      return memberJson(workspace, await members.add(workspace, email, values.role));
    },
  },
  'member remove': {
    synopsis: '<workspace> <email>',
    about: 'removes a member and revokes the keys they made there',
    details: 'The last owner of a workspace cannot be removed.',
    flags: [],
    args: 2,
    run: async ({ args: [slug = '', email = ''], store, io }) => {
      const workspace = await workspaceAdmin(store).bySlug(slug);
      await membersService(store, cliAudit(store, io.err)).remove(workspace, OPERATOR, email);
      return { workspace: workspace.slug, email: email.trim().toLowerCase() };
    },
  },
  'key create': {
    synopsis: '<workspace> --by <email> [--scopes a,b] [--name N]',
    about: "makes a further API key of a workspace in a member's name",
    details: `  --by <email>      the maker: an admin or owner of the workspace (required); removing
                    them from the workspace revokes the key
  --scopes a,b      by default every scope the maker's role allows; never wider
  --name N          by default "CLI key"
The key is printed only now.`,
    flags: ['by', 'scopes', 'name'],
    args: 1,
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
