import { clientKey } from '../../core/client-key.ts';
import { HOUR_MS } from '../../core/days.ts';
import type { Link } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import {
  isReportReason,
  isResolution,
  REPORT_COMMENT_MAX,
  type Report,
  type Resolution,
} from '../../core/moderation.ts';
import type { ReportStore } from '../../core/ports/abuse-store.ts';
import type { Mailer } from '../../core/ports/mailer.ts';
import type { WindowCounter } from '../../core/ports/shared-state.ts';
import type { LinkStore } from '../../core/ports/store.ts';
import { secondsUntil, windowAt } from '../../core/rate-window.ts';
import { isLinkCode } from '../../core/short-code.ts';
import type { AuditActor, AuditLog } from './audit-log.ts';
import type { BlocklistService } from './blocklists.ts';
import { reportMail } from './report-mail.ts';
import type { Takedowns } from './takedowns.ts';

/** Reports an address may make per hour (docs/api.md §13). */
export const REPORTS_PER_HOUR = 5;
const EMAIL_MAX = 254;
const URL_MAX = 2048;

/** A report as a visitor sends it: from the form or as JSON, any field possibly missing or of a wrong type. */
export interface ReportInput {
  url?: unknown;
  reason?: unknown;
  comment?: unknown;
  email?: unknown;
}

export interface ReportOptions {
  store: ReportStore & Pick<LinkStore, 'findLinkByCode'>;
  counter: WindowCounter;
  now: () => number;
  /** The domain a short URL's host is served on (its id), undefined for a host Snip serves no links on. */
  domainOf: (host: string) => number | undefined;
  takedowns: Takedowns;
  blocklists: BlocklistService;
  audit: AuditLog;
  /** Where each report is mailed (REPORT_EMAIL), when mail is configured. */
  mail?: { mailer: Mailer; to: string; baseUrl: URL; onError: (error: unknown) => void };
}

const malformed = (message: string) => new Refusal('300', message);

function text(value: unknown, field: string, max: number): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw malformed(`${field} must be a string.`);
  const trimmed = value.trim();
  if (trimmed.length > max) throw malformed(`${field} has at most ${max} characters.`);
  return trimmed;
}

const reportLimitKey = (address: string) => `report:{${clientKey(address)}}`;

/** A visitor's report, checked in the order: the limit, the fields, the link it names. */
async function submit(
  options: ReportOptions,
  linkOf: (url: string) => Promise<Link>,
  input: ReportInput,
  address: string,
): Promise<Report> {
  const { store, counter } = options;
  const window = windowAt(options.now(), HOUR_MS);
  if ((await counter.peek(reportLimitKey(address), window)) >= REPORTS_PER_HOUR) {
    throw new Refusal('429', 'Too many reports from this address: try again later.', {
      retryAfterSeconds: secondsUntil(window.end, options.now()),
    });
  }
  const url = text(input.url, 'url', URL_MAX);
  if (url === '') throw new Refusal('302', 'Give the short link you report.');
  if (!isReportReason(input.reason)) throw malformed('reason is phishing, malware, spam, illegal or other.');
  const comment = text(input.comment, 'comment', REPORT_COMMENT_MAX);
  const email = text(input.email, 'email', EMAIL_MAX);
  if (email !== '' && !/^[^\s@]+@[^\s@]+$/.test(email)) throw malformed('email is not an email address.');
  const link = await linkOf(url);
  await counter.increment(reportLimitKey(address), window);
  const report = await store.addReport({
    url,
    linkId: link.id,
    reason: input.reason,
    comment,
    email: email || null,
  });
  const mail = options.mail;
  if (mail) {
    // After the answer: a slow mail server never holds the reporter up.
    setImmediate(
      () => void mail.mailer.send(reportMail(report, link, mail.to, mail.baseUrl)).catch(mail.onError),
    );
  }
  return report;
}

/**
 * Visitors' reports (docs/api.md §13): a short URL of this Snip, a reason, a comment and an optional
 * email; at most 5 accepted per address an hour. Operators resolve each by disabling the link,
 * suspending its workspace, blocking its target's host, or dismissing it.
 */
export function reportService(options: ReportOptions) {
  const { store } = options;

  /** The live link a short URL names, or 314. */
  async function linkOf(url: string): Promise<Link> {
    const parsed = URL.parse(url) ?? URL.parse(`https://${url}`);
    const code = parsed?.pathname.slice(1) ?? '';
    const domainId = parsed ? options.domainOf(parsed.host) : undefined;
    if (domainId === undefined || !isLinkCode(code))
      throw new Refusal('314', 'That is not a short link of this Snip.');
    const link = await store.findLinkByCode(domainId, code);
    if (!link) throw new Refusal('314', 'No short link has that address.');
    return link;
  }

  async function act(actor: AuditActor, report: Report, action: Resolution): Promise<void> {
    const reason = `report ${report.id}: ${report.reason}`;
    if (action === 'dismiss') return;
    const link = await options.takedowns.linkById(report.linkId);
    if (action === 'disable') await options.takedowns.disableLinkById(actor, link.id, reason);
    else if (action === 'suspend')
      await options.takedowns.suspendWorkspaceById(actor, link.workspaceId, reason);
    else await options.blocklists.add(actor, new URL(link.longUrl).hostname);
  }

  return {
    submit: (input: ReportInput, address: string) => submit(options, linkOf, input, address),
    list: (open: boolean, limit = 100) => store.listReports({ open, limit }),
    countOpen: () => store.countOpenReports(),
    async find(id: number): Promise<Report> {
      const report = Number.isSafeInteger(id) ? await store.findReport(id) : undefined;
      if (!report) throw new Refusal('no-such-report');
      return report;
    },
    /** Resolves an open report with its action; a resolved one is answered as it is, with nothing done again. */
    async resolve(actor: AuditActor, id: number, action: unknown): Promise<Report> {
      if (!isResolution(action)) throw new Refusal('action-invalid');
      const report = Number.isSafeInteger(id) ? await store.findReport(id) : undefined;
      if (!report) throw new Refusal('no-such-report');
      if (report.resolvedAt !== null) return report;
      await act(actor, report, action);
      const resolved = (await store.resolveReport(id, action, actor.actorId)) ?? report;
      await options.audit.record(actor, {
        workspaceId: null,
        action: 'report.resolve',
        target: `report ${id}`,
        after: { resolution: action },
      });
      return resolved;
    },
  };
}

export type ReportService = ReturnType<typeof reportService>;
