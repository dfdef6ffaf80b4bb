import type { CommandUsage } from '../../../terminal/command.ts';

export const GROUP_FLAGS = { 'api-id': { type: 'string' } } as const;

export const GROUP_USAGE: Readonly<Record<string, CommandUsage>> = {
  'group create': {
    synopsis: '<email> <name> [--api-id ID]',
    about: 'creates a group of the account',
    details: `  --api-id ID       its API identifier (a lower-case slug, not all digits); derived from the
                    name when not given`,
    flags: ['api-id'],
    args: 2,
  },
};
