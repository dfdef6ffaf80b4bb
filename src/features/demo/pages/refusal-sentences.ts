import { CREATE_ERROR_CODES } from '../../../core/errors.ts';
import { URL_FAULT_MESSAGE, type UrlFault } from '../../../core/url-input.ts';
import { API_STATUS } from '../../../http/api-statuses.ts';
import { LINK_REFUSAL_TEXT, OWN_URL_TEXT, URL_FAULT_TEXT } from '../../../web/link-refusal-text.ts';

/** What the demo's scripts say of one code: its status (rest mode) and the plain sentence, if any. */
export interface DemoRefusal {
  status: number;
  /** None: the answer's own message says it, as the dashboard says it. */
  plain?: string;
}

/**
 * The codes /demo/create can refuse with, said as the dashboard says them (web/link-refusal-text.ts),
 * sent to the landing page's and the tester's scripts as page data. The demo stores nothing, so
 * its 305 is never a URL already shortened: it is always a URL of Snip itself.
 */
export function demoRefusals(): Record<string, DemoRefusal> {
  return Object.fromEntries(
    CREATE_ERROR_CODES.map((code) => {
      const plain = code === '305' ? OWN_URL_TEXT : LINK_REFUSAL_TEXT[code]?.text;
      return [code, { status: API_STATUS[code], ...(plain ? { plain } : {}) }];
    }),
  );
}

/**
 * A 300 about the URL says its cause in its message (core/url-input.ts); the scripts find the
 * dashboard's sentence for it by that message, both read from the same two tables.
 */
export function demoUrlFaults(): Record<string, string> {
  const faults = Object.keys(URL_FAULT_MESSAGE) as UrlFault[];
  return Object.fromEntries(faults.map((fault) => [URL_FAULT_MESSAGE[fault], URL_FAULT_TEXT[fault]]));
}
