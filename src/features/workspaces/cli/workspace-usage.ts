import type { CommandUsage } from '../../../terminal/command.ts';

export const WORKSPACE_FLAGS = {
  owner: { type: 'string' },
  plan: { type: 'string' },
  name: { type: 'string' },
  role: { type: 'string' },
  by: { type: 'string' },
  scopes: { type: 'string' },
} as const;

export const WORKSPACE_USAGE: Readonly<Record<string, CommandUsage>> = {
  'workspace create': {
    synopsis: '<slug> --owner <email> [--plan P] [--name N]',
    about: 'creates a team workspace with its first owner',
    details: `  --owner <email>   an existing user, the workspace's first owner (required)
  --plan P          the workspace's plan; by default the plan of the owner's personal workspace
  --name N          what the pages call it; by default the slug
The slug is its address, /w/<slug>: 1-40 lower-case letters, digits and inner hyphens.`,
    flags: ['owner', 'plan', 'name'],
    args: 1,
  },
  'workspace list': {
    synopsis: '',
    about: 'lists the workspaces, oldest first',
    details: `One line per workspace: slug, name, plan, personal or team.
--json prints {"items": [{id, slug, name, plan, personal, created_at}, ...]}.`,
    flags: [],
    args: 0,
  },
  'workspace plan': {
    synopsis: '<slug> <plan>',
    about: "puts a workspace, personal or a team's, on a plan",
    details: `Its links and keys stay: over the new quota, new links are refused (304); without API
access, its keys answer 303 until the plan has it again. The change is in the audit log.`,
    flags: [],
    args: 2,
  },
  'member add': {
    synopsis: '<workspace> <email> --role R',
    about: 'adds an existing user to a workspace with a role',
    details: '  --role R          owner, admin, member or viewer (required)',
    flags: ['role'],
    args: 2,
  },
  'member remove': {
    synopsis: '<workspace> <email>',
    about: 'removes a member and revokes the keys they made there',
    details: 'The last owner of a workspace cannot be removed.',
    flags: [],
    args: 2,
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
  },
};
