import { CREATE_ERROR_CODES } from '../../../core/errors.ts';
import { API_STATUS } from '../../../http/api-statuses.ts';
import { LINK_REFUSAL_TEXT, OWN_URL_TEXT } from '../../../web/link-refusal-text.ts';

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
