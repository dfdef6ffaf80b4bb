import type { CommandUsage } from '../../../terminal/command.ts';

export const ABUSE_FLAGS = {
  reason: { type: 'string' },
  action: { type: 'string' },
  open: { type: 'boolean' },
  exact: { type: 'boolean' },
} as const;

function linkUsage(enable: boolean): CommandUsage {
  return {
    synopsis: enable ? '<code> [--domain H]' : '<code> [--domain H] --reason R',
    about: enable
      ? 'enables a link an operator disabled: it redirects again'
      : 'disables a link for abuse: it answers 410, its owner cannot enable it',
    details: `  --domain H        the domain the code is on (the default domain without it)${enable ? '' : '\n  --reason R        why (kept with the link and in the audit log; required)'}`,
    flags: enable ? ['domain'] : ['domain', 'reason'],
    args: 1,
  };
}

function suspensionUsage(kind: 'workspace' | 'user', suspend: boolean): CommandUsage {
  const what = kind === 'workspace' ? '<slug>' : '<email>';
  return {
    synopsis: kind === 'workspace' && suspend ? `${what} [--reason R]` : what,
    about:
      kind === 'workspace'
        ? suspend
          ? 'suspends a workspace: its links answer 410, its keys 303'
          : 'resumes a suspended workspace'
        : suspend
          ? 'suspends a user: signed out everywhere, cannot sign in, their keys answer 303'
          : 'resumes a suspended user',
    details: kind === 'workspace' && suspend ? '  --reason R        why (default: abuse)' : undefined,
    flags: kind === 'workspace' && suspend ? ['reason'] : [],
    args: 1,
  };
}

function operatorUsage(grant: boolean): CommandUsage {
  return {
    synopsis: '<email>',
    about: grant ? 'makes a user an operator: /admin opens for them' : 'takes the operator flag back',
    flags: [],
    args: 1,
  };
}

/** The operator's commands of docs/api.md §13: takedowns, blocklists and the reports queue. */
export const ABUSE_USAGE: Readonly<Record<string, CommandUsage>> = {
  'operator grant': operatorUsage(true),
  'operator revoke': operatorUsage(false),
  'link disable': linkUsage(false),
  'link enable': linkUsage(true),
  'workspace suspend': suspensionUsage('workspace', true),
  'workspace resume': suspensionUsage('workspace', false),
  'user suspend': suspensionUsage('user', true),
  'user resume': suspensionUsage('user', false),
  'blocklist import': {
    synopsis: '<name> <file>',
    about: 'replaces the rules of a blocklist with those of a hosts, plain or AdBlock file',
    details: `Each line is a rule, a comment, or skipped with its line number (printed with --json,
the first 1,000). "-" reads the file from standard input.`,
    flags: [],
    args: 2,
  },
  'blocklist add': {
    synopsis: '<host> [--exact]',
    about: 'blocks a host and its subdomains (--exact: the host alone)',
    flags: ['exact'],
    args: 1,
  },
  'blocklist remove': {
    synopsis: '<host>',
    about: 'removes a host’s rules from every blocklist',
    flags: [],
    args: 1,
  },
  'blocklist list': {
    synopsis: '',
    about: 'lists the blocklists with their rule counts',
    details: '--json prints {"items": [{name, source, rules, skipped, updated_at}, ...]}.',
    flags: [],
    args: 0,
  },
  'report list': {
    synopsis: '[--open]',
    about: 'lists reports, newest first (--open: only those not resolved)',
    flags: ['open'],
    args: 0,
  },
  'report resolve': {
    synopsis: '<id> --action disable|suspend|block|dismiss',
    about:
      'resolves a report: disables its link, suspends its workspace, blocks its target’s host, or dismisses it',
    flags: ['action'],
    args: 1,
  },
};
