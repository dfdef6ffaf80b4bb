import type { MailMessage } from '../../../core/ports/mailer.ts';
import { html, type SafeHtml } from '../../../web/html.ts';

/**
 * The mails a workspace sends. Names come from other people (a workspace's owner, an inviter), so
 * they are flattened to one line everywhere — a newline in a subject would start a new header, and
 * in the text part it could fake a paragraph — and escaped in the HTML part.
 */

/** Control characters and line breaks become spaces; bidi overrides, which can disguise text, go. */
function oneLine(value: string): string {
  return value
    .replace(/[\u202A-\u202E\u2066-\u2069]/g, '')
    .replace(/[\p{Cc}\s]+/gu, ' ')
    .trim();
}

/** Unambiguous for every reader whatever their locale: the recipient's zone is unknown. */
function utc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function page(paragraphs: SafeHtml[], url: string, action: string, footer: string): string {
  return html`<!doctype html>
<html><body style="font-family: sans-serif; line-height: 1.5">
${paragraphs.map((p) => html`<p>${p}</p>\n`)}<p><a href="${url}">${action}</a></p>
<p style="color: #555; font-size: 0.9em">${footer}</p>
</body></html>
`.html;
}

export function invitationMessage(input: {
  to: string;
  workspaceName: string;
  role: string;
  invitedBy: string;
  url: string;
  expiresAt: Date;
}): MailMessage {
  const workspace = oneLine(input.workspaceName);
  const inviter = oneLine(input.invitedBy);
  const role = oneLine(input.role);
  const expires = utc(input.expiresAt);
  const footer = `The invitation expires on ${expires}. If you did not expect it, you can ignore this email.`;
  return {
    to: input.to,
    subject: `You are invited to join ${workspace} on Snip`,
    text: `${inviter} invited you to join the workspace "${workspace}" on Snip as ${role}.

Accept the invitation:
${input.url}

${footer}
`,
    html: page(
      [html`${inviter} invited you to join the workspace <strong>${workspace}</strong> on Snip as ${role}.`],
      input.url,
      'Accept the invitation',
      footer,
    ),
  };
}

export function verificationMessage(input: { to: string; url: string }): MailMessage {
  const footer = 'If you did not create a Snip account, you can ignore this email.';
  return {
    to: input.to,
    subject: 'Confirm your email address for Snip',
    text: `Confirm that this is your email address by opening this link:
${input.url}

${footer}
`,
    html: page(
      [html`Confirm that this is your email address.`],
      input.url,
      'Confirm my email address',
      footer,
    ),
  };
}

export function passwordResetMessage(input: { to: string; url: string }): MailMessage {
  const validity = 'The link is valid for one hour and works only once.';
  const footer = 'If you did not ask to reset your password, you can ignore this email: nothing changes.';
  return {
    to: input.to,
    subject: 'Reset your Snip password',
    text: `Choose a new password for Snip by opening this link:
${input.url}

${validity}
${footer}
`,
    html: page(
      [html`Choose a new password for Snip with the link below.`, html`${validity}`],
      input.url,
      'Choose a new password',
      footer,
    ),
  };
}

/** To the address of an existing account when someone signs up with it: nothing is made or changed. */
export function accountExistsMessage(input: {
  to: string;
  signInUrl: string;
  resetUrl: string;
}): MailMessage {
  const footer = 'If it was not you, you can ignore this email: your account is unchanged.';
  return {
    to: input.to,
    subject: 'You already have a Snip account',
    text: `Someone, probably you, tried to create a Snip account with this address, which already has one.

Sign in:
${input.signInUrl}

Forgot your password? Choose a new one:
${input.resetUrl}

${footer}
`,
    html: page(
      [
        html`Someone, probably you, tried to create a Snip account with this address, which already has one.`,
        html`Forgot your password? <a href="${input.resetUrl}">Choose a new one</a>.`,
      ],
      input.signInUrl,
      'Sign in',
      footer,
    ),
  };
}

/** To the new address of a change of email: the link that confirms it (docs/api.md §22). */
export function emailChangeMessage(input: { to: string; url: string }): MailMessage {
  const validity = 'The link is valid for one day and works only once.';
  const footer = 'If you did not ask for this, you can ignore this email: nothing changes.';
  return {
    to: input.to,
    subject: 'Confirm your new email address for Snip',
    text: `Confirm that your Snip account should use this address from now on:
${input.url}

${validity}
${footer}
`,
    html: page(
      [html`Confirm that your Snip account should use this address from now on.`, html`${validity}`],
      input.url,
      'Use this address',
      footer,
    ),
  };
}

/** To the old address when a change of email is asked for: word of it, and the way to stop it. */
export function emailChangeNoticeMessage(input: { to: string; newEmail: string; url: string }): MailMessage {
  const newEmail = oneLine(input.newEmail);
  const footer = 'Nothing changes until the link mailed to the new address is followed.';
  return {
    to: input.to,
    subject: 'Your Snip email address is about to change',
    text: `Someone signed in to your Snip account asked to change its email address to ${newEmail}.

If it was not you, change your password at once: that ends the change and every other session.
${input.url}

${footer}
`,
    html: page(
      [
        html`Someone signed in to your Snip account asked to change its email address to <strong>${newEmail}</strong>.`,
        html`If it was not you, change your password at once: that ends the change and every other session.`,
      ],
      input.url,
      'Account Settings',
      footer,
    ),
  };
}
