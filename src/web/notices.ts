import { html, type SafeHtml } from './html.ts';

/** Notices: the one-line messages a page shows above its form, a refusal or what was just done. */

/** A refusal shown on a page; `code` is what tests and scripts read (data-error), the text is for people. */
export interface PageError {
  code: string;
  message: string;
}

export function errorNotice(error: PageError | undefined): SafeHtml {
  if (!error) return html``;
  return html`<p class="notice error" role="alert" data-error="${error.code}">${error.message}</p>`;
}

export function doneNotice(code: string | undefined, messages: Readonly<Record<string, string>>): SafeHtml {
  const message = code === undefined ? undefined : messages[code];
  if (message === undefined) return html``;
  return html`<p class="notice" role="status" data-done="${code}">${message}</p>`;
}

export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}
