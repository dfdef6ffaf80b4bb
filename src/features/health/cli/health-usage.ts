import type { CommandUsage } from '../../../terminal/command.ts';

export const HEALTH_FLAGS = { domain: { type: 'string' } } as const;

export const HEALTH_USAGE: Readonly<Record<string, CommandUsage>> = {
  'link check': {
    synopsis: '<short_code> [--domain HOST]',
    about: "checks a link's targets now and prints its health (docs/api.md §21)",
    details: `  --domain HOST     the domain whose code it is (docs/api.md §12); the default domain without it
The url, then each rule's and variant's, checked as a create would (310, 316, 306-311).
One line per field: state (ok, broken, unknown), checked_at, code, status, since.
--json prints {"short_code", "health": {state, checked_at, code, status, since}}.`,
    flags: ['domain'],
    args: 1,
  },
};
