import type { Frame } from '../../../web/frame.ts';
import { html } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { csrfField, doneNotice } from '../../../web/notices.ts';

/** GET /account/mail: the mail a person gets besides what they ask for, and the switch to stop it. */

export interface MailView {
  frame: Frame;
  healthMail: boolean;
  /** Whether this instance sends mail at all. */
  mailConfigured: boolean;
  done?: string;
}

const DONE: Record<string, string> = {
  saved: 'Your mail settings were saved.',
};

export function mailPage(view: MailView): string {
  const checked = view.healthMail ? html` checked` : html``;
  return page({
    title: 'Mail settings',
    current: '/account',
    frame: view.frame,
    styles: ['dashboard.css'],
    body: html`<h1>Mail settings</h1>
${doneNotice(view.done, DONE)}
<section class="card" id="health-mail" aria-labelledby="health-mail-heading">
<h2 id="health-mail-heading">Broken links</h2>
<p>Once a day at most, a mail lists the links of the workspaces you own or administer that stopped working since the last one: their targets failed two checks in a row.</p>
${view.mailConfigured ? html`` : html`<p class="hint" data-state="no-mail">This Snip sends no mail: the setting is kept for when it does.</p>`}
<form method="post" action="/account/mail" class="stack narrow-form">
  ${csrfField(view.frame.csrfToken)}
  <label><input type="checkbox" name="health_mail" value="on"${checked}> Mail me the links that broke</label>
  <button type="submit">Save</button>
</form>
</section>
<p><a href="/account">Back to your account</a></p>`,
  });
}
