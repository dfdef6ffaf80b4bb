import type { Link } from '../../core/entities.ts';
import type { Report } from '../../core/moderation.ts';
import type { MailMessage } from '../../core/ports/mailer.ts';
import { html } from '../../web/html.ts';

/** Control characters and line breaks become spaces: a reporter's words never start a header or fake a line. */
const oneLine = (value: string) =>
  value
    .replace(/[\u202A-\u202E\u2066-\u2069]/g, '')
    .replace(/[\p{Cc}\s]+/gu, ' ')
    .trim();

/** The mail to REPORT_EMAIL for a new report: what was reported, and where to resolve it. */
export function reportMail(report: Report, link: Link, to: string, baseUrl: URL): MailMessage {
  const queue = new URL('/admin/reports', baseUrl).href;
  const lines = [
    `Short link: ${oneLine(report.url)}`,
    `It leads to: ${oneLine(link.longUrl)}`,
    `Reason: ${report.reason}`,
    `Comment: ${oneLine(report.comment) || '(none)'}`,
    `Reporter's email: ${report.email ? oneLine(report.email) : '(none)'}`,
  ];
  return {
    to,
    subject: `Snip: report ${report.id} (${report.reason})`,
    text: `A visitor reported a short link.\n\n${lines.join('\n')}\n\nResolve it: ${queue}\n`,
    html: html`<!doctype html>
<html><body style="font-family: sans-serif; line-height: 1.5">
<p>A visitor reported a short link.</p>
<ul>${lines.map((line) => html`<li>${line}</li>`)}</ul>
<p><a href="${queue}">Resolve it in the operator console</a></p>
</body></html>
`.html,
  };
}
