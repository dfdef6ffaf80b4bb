import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CREATE_ERROR_CODES } from '../../../src/core/errors.ts';
import { demoRefusals } from '../../../src/features/demo/pages/refusal-sentences.ts';
import { API_STATUS } from '../../../src/http/api-statuses.ts';
import { LINK_REFUSAL_TEXT, OWN_URL_TEXT } from '../../../src/web/link-refusal-text.ts';

/** What the landing page and the tester send their scripts of each code /demo/create refuses with. */

describe("the demo's refusals as page data", () => {
  it("carries the dashboard's sentence of each code it has one for, the status of every code", () => {
    const refusals = demoRefusals();
    assert.deepEqual(Object.keys(refusals).sort(), [...CREATE_ERROR_CODES].sort());
    for (const code of CREATE_ERROR_CODES) {
      assert.equal(refusals[code]?.status, API_STATUS[code], code);
      if (code !== '305') assert.equal(refusals[code]?.plain, LINK_REFUSAL_TEXT[code]?.text, code);
    }
    assert.equal(refusals['300']?.plain, undefined, "a malformed request keeps the answer's own message");
    assert.equal(refusals['310']?.plain, LINK_REFUSAL_TEXT['310']?.text);
  });

  it('says a 305 as a URL of Snip itself: the demo stores nothing, so nothing is a duplicate', () => {
    assert.equal(demoRefusals()['305']?.plain, OWN_URL_TEXT);
  });
});
