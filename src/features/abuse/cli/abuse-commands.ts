import { readFile } from 'node:fs/promises';
import { CLI_ACTOR } from '../../../core/moderation.ts';
import type { CommandCode } from '../../../terminal/command.ts';
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
import type { ABUSE_FLAGS } from './abuse-usage.ts';

/** The operator's commands of docs/api.md §13: takedowns, blocklists and the reports queue. */

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

type AbuseCommand = CommandCode<typeof ABUSE_FLAGS & { domain: { type: 'string' } }, AbuseCliDeps>;

const reportLine = (r: Record<string, unknown>) => tab(r.id, r.status, r.reason, r.url, r.resolution);

function linkCommand(enable: boolean): AbuseCommand {
  return {
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
  return {
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
    run: async ({ args: [host = ''], values, withAbuse }) =>
      withAbuse(async ({ blocklists }) => {
        const { rule, added } = await blocklists.add(CLI_ACTOR, host, values.exact === true);
        return { host: rule.host, subdomains: rule.subdomains, added };
      }),
  },
  'blocklist remove': {
    run: async ({ args: [host = ''], withAbuse }) =>
      withAbuse(async ({ blocklists }) => blocklists.remove(CLI_ACTOR, host)),
  },
  'blocklist list': {
    line: (l) => tab(l.name, `${l.rules} rules`, l.source),
    run: async ({ withAbuse }) =>
      withAbuse(async ({ blocklists }) => ({ items: (await blocklists.list()).map(blocklistJson) })),
  },
  'report list': {
    line: reportLine,
    run: async ({ values, withAbuse }) =>
      withAbuse(async ({ reports }) => ({
        items: (await reports.list(values.open === true)).map(reportJson),
      })),
  },
  'report resolve': {
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
