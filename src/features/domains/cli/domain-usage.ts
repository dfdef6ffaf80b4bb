import type { CommandUsage } from '../../../terminal/command.ts';

export const DOMAIN_FLAGS = {
  shared: { type: 'boolean' },
  workspace: { type: 'string' },
  https: { type: 'string' },
  'root-redirect': { type: 'string' },
  'not-found-redirect': { type: 'string' },
} as const;

export const DOMAIN_USAGE: Readonly<Record<string, CommandUsage>> = {
  'domain add': {
    synopsis: '<host> (--shared | --workspace W)',
    about: 'adds a domain: shared with every workspace (verified at once), or a workspace’s own',
    details: `  --shared          every workspace may put links on it; the operator vouches for it
  --workspace W     the workspace (slug) it belongs to; it serves links once verified
                    (its TXT record, or snip domain verify)`,
    flags: ['shared', 'workspace'],
    args: 1,
  },
  'domain verify': {
    synopsis: '<host> [--workspace W]',
    about: 'marks a domain verified: it serves links and gets certificates',
    details: `The operator’s word replaces the TXT record. Several workspaces may claim a host until one
verifies it: --workspace W names whose claim wins (needed when there are several); the other
claims are dropped and their workspaces told.`,
    flags: ['workspace'],
    args: 1,
  },
  'domain set': {
    synopsis:
      '<host> [--https on|off] [--root-redirect URL|none] [--not-found-redirect URL|none] [--workspace W]',
    about: 'changes a domain’s settings (the default domain’s too)',
    details: `  --https on|off            short URLs on it start with https:// or http://
  --root-redirect URL       where / goes (none: the landing page or 404)
  --not-found-redirect URL  where an unknown code goes (none: the 404 page)
  --workspace W             whose claim, when several workspaces claim an unverified host`,
    flags: ['https', 'root-redirect', 'not-found-redirect', 'workspace'],
    args: 1,
  },
  'domain list': {
    synopsis: '',
    about: 'lists every domain, the default one first',
    details: `One line per domain: host, shared or its workspace, verified or not, live links.
--json prints {"items": [{host, shared, workspace, verified, https, ..., links}, ...]}.`,
    flags: [],
    args: 0,
  },
  'domain remove': {
    synopsis: '<host> [--workspace W]',
    about: 'removes a domain without live links (refused while it has some)',
    details: `Its codes stay issued: a domain added again never reissues them. --workspace W: whose
claim, when several workspaces claim an unverified host.`,
    flags: ['workspace'],
    args: 1,
  },
};
