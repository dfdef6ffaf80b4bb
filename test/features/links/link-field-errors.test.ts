import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formError, linkRefusal } from '../../../src/features/links/pages/link-field-errors.ts';

/** Which field of the create and edit forms a refusal is said next to; the code always kept. */

const refused = (code: string, message = 'as the API says it') => ({ code, message });

describe('a refused link said next to its field', () => {
  it('puts each URL, code, group and domain refusal under its field, keeping the code', () => {
    const cases: Array<[string, string | undefined]> = [
      ['302', 'url'],
      ['306', 'url'],
      ['307', 'url'],
      ['310', 'url'],
      ['316', 'url'],
      ['320', 'url'],
      ['313', 'slug'],
      ['312', 'group'],
      ['317', 'domain'],
      ['304', undefined],
      ['314', undefined],
    ];
    for (const [code, field] of cases) {
      const refusal = linkRefusal(refused(code));
      assert.equal(refusal?.field, field, code);
      assert.equal(refusal?.error.code, code);
      assert.notEqual(refusal?.error.message, 'as the API says it', `${code} is said plainly`);
      assert.equal(formError(refusal) === undefined, field !== undefined, code);
    }
  });

  it("says a rule's URL above the form: a kept long URL, the API naming a rule, or either when rules have URLs", () => {
    assert.equal(linkRefusal(refused('310'), { urlKept: true })?.field, undefined);
    assert.equal(linkRefusal(refused('310', 'A rule links to a social network.'))?.field, undefined);
    assert.equal(linkRefusal(refused('306'), { ruleUrls: true })?.field, undefined);
    assert.equal(linkRefusal(refused('313'), { ruleUrls: true, urlKept: true })?.field, 'slug');
  });

  it('keeps the message of a code it has no sentence for, and names the link a 305 already has', () => {
    assert.deepEqual(linkRefusal(refused('300', 'expires_at is in the past')), {
      error: refused('300', 'expires_at is in the past'),
    });
    const existing = linkRefusal(refused('305', 'This URL was already shortened: https://sn.ip/abc1234.'));
    assert.equal(existing?.field, 'url');
    assert.match(existing?.error.message ?? '', /https:\/\/sn\.ip\/abc1234/);
    assert.equal(linkRefusal(undefined), undefined);
  });
});
