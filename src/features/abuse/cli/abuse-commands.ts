import { readFile } from 'node:fs/promises';
import { CLI_ACTOR } from '../../../core/moderation.ts';
import type { Command } from '../../../terminal/command.ts';
import { count, tab, UsageError } from '../../../terminal/command.ts';
import {
  blocklistJson,
  moderatedUserJson,
  reportJson,
  suspendedWorkspaceJson,
  takedownLinkJson,
} from '../abuse-json.ts';
import type { BlocklistService } from '../blocklists.ts';
import type { ReportService } from '../reports.ts';
import type { Takedowns } from '../takedowns.ts';

/** The operator's commands of docs/api.md §13: takedowns, blocklists and the reports queue. */

export const ABUSE_FLAGS = {
  reason: { type: 'string' },
  action: { type: 'string' },
  open: { type: 'boolean' },
  exact: { type: 'boolean' },
} as const;

/** What the operator's abuse services are, as the command line opens them (changes announced to the servers). */
export interface AbuseOperations {
  takedowns: Takedowns;
  blocklists: BlocklistService;
  reports: ReportService;
  /** A link's short URL as visitors see it. */
  shortUrl: (link: { domainId: number; code: string }) => string;
}

export interface AbuseCliDeps {
  withAbuse<T>(use: (abuse: AbuseOperations) => Promise<T>): Promise<T>;
  /** The domain named by --domain (the default domain without it). */
  domainOf(host: string | undefined): Promise<number>;
}

type AbuseCommand = Command<typeof ABUSE_FLAGS & { domain: { type: 'string' } }, AbuseCliDeps>;

const reportLine = (r: Record<string, unknown>) => tab(r.id, r.status, r.reason, r.url, r.resolution);

function linkCommand(enable: boolean): AbuseCommand {
  return {
    synopsis: enable ? '<code> [--domain H]' : '<code> [--domain H] --reason R',
    about: enable
      ? 'enables a link an operator disabled: it redirects again'
      : 'disables a link for abuse: it answers 410, its owner cannot enable it',
    details: `  --domain H        the domain the code is on (the default domain without it)${enable ? '' : '\n  --reason R        why (kept with the link and in the audit log; required)'}`,
    flags: enable ? ['domain'] : ['domain', 'reason'],
    args: 1,
    run: async ({ args: [code = ''], values, withAbuse, domainOf }) => {
      if (!enable && !values.reason) throw new UsageError('link disable needs --reason <text>');
      const domainId = await domainOf(values.domain);
      return withAbuse(async ({ takedowns, shortUrl }) => {
        const link = enable
          ? await takedowns.enableLink(CLI_ACTOR, { domainId, code })
          : await takedowns.disableLink(CLI_ACTOR, { domainId, code }, values.reason ?? '');
        return takedownLinkJson(link, shortUrl(link));
      });
    },
  };
}

function suspension(kind: 'workspace' | 'user', suspend: boolean): AbuseCommand {
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
    run: async ({ args: [name = ''], values, withAbuse }) =>
      withAbuse(async ({ takedowns }) => {
        if (kind === 'user') {
          const user = suspend
            ? await takedowns.suspendUser(CLI_ACTOR, name)
            : await takedowns.resumeUser(CLI_ACTOR, name);
          return moderatedUserJson(user);
        }
        const workspace = suspend
          ? await takedowns.suspendWorkspace(CLI_ACTOR, name, values.reason)
          : await takedowns.resumeWorkspace(CLI_ACTOR, name);
        return suspendedWorkspaceJson(workspace);
      }),
  };
}

function operatorCommand(grant: boolean): AbuseCommand {
  return {
    synopsis: '<email>',
    about: grant ? 'makes a user an operator: /admin opens for them' : 'takes the operator flag back',
    flags: [],
    args: 1,
    run: async ({ args: [email = ''], withAbuse }) =>
      withAbuse(async ({ takedowns }) =>
        moderatedUserJson(
          grant
            ? await takedowns.grantOperator(CLI_ACTOR, email)
            : await takedowns.revokeOperator(CLI_ACTOR, email),
        ),
      ),
  };
}

export const ABUSE_COMMANDS: Record<string, AbuseCommand> = {
  'operator grant': operatorCommand(true),
  'operator revoke': operatorCommand(false),
  'link disable': linkCommand(false),
  'link enable': linkCommand(true),
  'workspace suspend': suspension('workspace', true),
  'workspace resume': suspension('workspace', false),
  'user suspend': suspension('user', true),
  'user resume': suspension('user', false),
  'blocklist import': {
    synopsis: '<name> <file>',
    about: 'replaces the rules of a blocklist with those of a hosts, plain or AdBlock file',
    details: `Each line is a rule, a comment, or skipped with its line number (printed with --json,
the first 1,000). "-" reads the file from standard input.`,
    flags: [],
    args: 2,
    run: async ({ args: [name = '', file = ''], withAbuse, io }) => {
      const text =
        file === '-'
          ? await readAll(io.input())
          : await readFile(file).then((bytes) => bytes.toString('utf8'));
      return withAbuse(async ({ blocklists }) => {
        const { list, parsed } = await blocklists.importText(CLI_ACTOR, name, text, null);
        return {
          ...blocklistJson(list),
          lines: parsed.lines,
          applied: parsed.applied,
          skipped_lines: parsed.skippedLines,
        };
      });
    },
  },
  'blocklist add': {
    synopsis: '<host> [--exact]',
    about: 'blocks a host and its subdomains (--exact: the host alone)',
    flags: ['exact'],
    args: 1,
    run: async ({ args: [host = ''], values, withAbuse }) =>
      withAbuse(async ({ blocklists }) => {
        const { rule, added } = await blocklists.add(CLI_ACTOR, host, values.exact === true);
        return { host: rule.host, subdomains: rule.subdomains, added };
      }),
  },
  'blocklist remove': {
    synopsis: '<host>',
    about: 'removes a host’s rules from every blocklist',
    flags: [],
    args: 1,
    run: async ({ args: [host = ''], withAbuse }) =>
      withAbuse(async ({ blocklists }) => blocklists.remove(CLI_ACTOR, host)),
  },
  'blocklist list': {
    synopsis: '',
    about: 'lists the blocklists with their rule counts',
    details: '--json prints {"items": [{name, source, rules, skipped, updated_at}, ...]}.',
    flags: [],
    args: 0,
    line: (l) => tab(l.name, `${l.rules} rules`, l.source),
    run: async ({ withAbuse }) =>
      withAbuse(async ({ blocklists }) => ({ items: (await blocklists.list()).map(blocklistJson) })),
  },
  'report list': {
    synopsis: '[--open]',
    about: 'lists reports, newest first (--open: only those not resolved)',
    flags: ['open'],
    args: 0,
    line: reportLine,
    run: async ({ values, withAbuse }) =>
      withAbuse(async ({ reports }) => ({
        items: (await reports.list(values.open === true)).map(reportJson),
      })),
  },
  'report resolve': {
    synopsis: '<id> --action disable|suspend|block|dismiss',
    about:
      'resolves a report: disables its link, suspends its workspace, blocks its target’s host, or dismisses it',
    flags: ['action'],
    args: 1,
    run: async ({ args: [id = ''], values, withAbuse }) => {
      if (!values.action) throw new UsageError('report resolve needs --action disable|suspend|block|dismiss');
      const number = count(id, 'the report id') ?? 0;
      return withAbuse(async ({ reports }) =>
        reportJson(await reports.resolve(CLI_ACTOR, number, values.action)),
      );
    },
  },
};

async function readAll(input: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}
