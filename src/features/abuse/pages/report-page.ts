import { REPORT_COMMENT_MAX, REPORT_REASONS, type ReportReason } from '../../../core/moderation.ts';
import { html } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { csrfField, errorNotice, type PageError } from '../../../web/notices.ts';

/** What the report form shows: what was typed (kept on a refusal), and the outcome. */
export interface ReportView {
  csrfToken: string;
  url?: string;
  reason?: string;
  comment?: string;
  email?: string;
  error?: PageError;
  /** The number of the report just made. */
  made?: number;
}

const REASON_WORDS: Readonly<Record<ReportReason, string>> = {
  phishing: 'Phishing: it imitates a site to steal passwords or payment details',
  malware: 'Malware: it downloads or runs harmful software',
  spam: 'Spam: it is sent unasked, in bulk',
  illegal: 'Illegal content',
  other: 'Something else',
};

/** GET /report (docs/api.md §13): the public form visitors report a short link with. */
export function reportPage(view: ReportView): string {
  const thanks = view.made
    ? html`<p class="notice success" role="status" data-report="${view.made}">Thank you: your report (number ${view.made}) is in the operators’ queue.</p>`
    : html``;
  return page({
    chrome: 'visitor',
    title: 'Report a short link',
    narrow: true,
    description: 'Report a short link that leads to phishing, malware, spam or illegal content.',
    body: html`<section class="card" aria-labelledby="report-heading">
<h1 id="report-heading">Report a short link</h1>
<p>Tell the operators of this Snip about a short link that leads somewhere harmful. They look at every report.</p>
${thanks}${errorNotice(view.error)}
<form method="post" action="/report" class="stack narrow-form">
  ${csrfField(view.csrfToken)}
  <label>The short link <input type="url" name="url" required maxlength="2048" value="${view.url ?? ''}" placeholder="https://…"></label>
  <fieldset><legend>What is wrong with it</legend>
  ${REPORT_REASONS.map(
    (reason) =>
      html`<label class="choice"><input type="radio" name="reason" value="${reason}" required${view.reason === reason ? html` checked` : html``}> ${REASON_WORDS[reason]}</label>`,
  )}
  </fieldset>
  <label>What you saw <span class="hint">(optional)</span> <textarea name="comment" rows="4" maxlength="${REPORT_COMMENT_MAX}">${view.comment ?? ''}</textarea></label>
  <label>Your email <span class="hint">(optional, if you want an answer)</span> <input type="email" name="email" maxlength="254" value="${view.email ?? ''}" autocomplete="email"></label>
  <button type="submit">Send the report</button>
</form>
</section>`,
  });
}
