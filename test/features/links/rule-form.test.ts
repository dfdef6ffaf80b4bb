import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  inputTimeOf,
  instantOf,
  readRuleForm,
  ruleChanges,
  ruleDraft,
  ruleFormOf,
} from '../../../src/features/links/pages/rule-form.ts';
import { aLink } from '../../fixtures/link.ts';

/** The dashboard's rule fields as sent, and what they ask of the service. */

const link = aLink;

describe('the rule fields of the dashboard forms', () => {
  it('reads UTC form times as RFC 3339 instants and passes anything else on as typed', () => {
    assert.equal(instantOf('2027-01-31T12:00'), '2027-01-31T12:00:00Z');
    assert.equal(instantOf('2027-01-31 12:00:30'), '2027-01-31T12:00:30Z');
    assert.equal(instantOf('tomorrow'), 'tomorrow');
    assert.equal(inputTimeOf(new Date('2027-01-31T12:00:00.000Z')), '2027-01-31T12:00');
    assert.equal(inputTimeOf(new Date('2027-01-31T12:00:30.500Z')), '2027-01-31T12:00:30');
  });

  it('drafts only what is filled in, keeps rule rows in order and leaves out the empty ones', () => {
    const form = readRuleForm({
      expires_at: '2027-01-31T12:00',
      max_clicks: '10',
      password: 'open sesame',
      rule_device_0: 'ios',
      rule_country_0: '',
      rule_language_0: '',
      rule_url_0: 'https://example.com/ios',
      rule_device_1: '',
      rule_country_1: '',
      rule_language_1: '',
      rule_url_1: '',
      rule_device_2: '',
      rule_country_2: 'de',
      rule_language_2: 'fr',
      rule_url_2: ' https://example.com/de ',
    });
    assert.deepEqual(ruleDraft(form), {
      expiresAt: '2027-01-31T12:00:00Z',
      maxClicks: 10,
      password: 'open sesame',
      rules: [
        { if: { device: 'ios' }, url: 'https://example.com/ios' },
        { if: { country: 'de', language: 'fr' }, url: 'https://example.com/de' },
      ],
    });
    assert.deepEqual(ruleDraft(readRuleForm({ expires_at: '', max_clicks: '', password: '' })), {});
    assert.ok(Number.isNaN(ruleDraft(readRuleForm({ max_clicks: 'ten' })).maxClicks));
  });

  it('changes nothing when the form shows the link as it is, nor what the form did not send', () => {
    const stored = link({
      expiresAt: new Date('2027-01-31T12:00:00Z'),
      maxClicks: 5,
      passwordHash: 'scrypt$…',
      rules: [{ if: { device: 'android', country: 'DE' }, url: 'https://example.com/a' }],
    });
    const shown = ruleFormOf(stored);
    assert.equal(shown.password, '', 'the password is never shown');
    assert.deepEqual(ruleChanges(stored, shown), {});
    assert.deepEqual(ruleChanges(stored, readRuleForm({})), {});
    // A browser may send the time without its seconds, and the country in lower case.
    const resent = readRuleForm({
      expires_at: '2027-01-31T12:00:00',
      max_clicks: '5',
      rule_device_0: 'android',
      rule_country_0: 'de',
      rule_url_0: 'https://example.com/a',
    });
    assert.deepEqual(ruleChanges(stored, resent), {});
  });

  it('clears what is emptied, removes the password when asked and sets a new one when typed', () => {
    const stored = link({
      expiresAt: new Date('2027-01-31T12:00:00Z'),
      maxClicks: 5,
      passwordHash: 'scrypt$…',
      rules: [{ if: { device: 'android' }, url: 'https://example.com/a' }],
    });
    const cleared = readRuleForm({
      expires_at: '',
      max_clicks: '',
      password: 'ignored when removing',
      remove_password: '1',
      rule_url_0: '',
    });
    assert.deepEqual(ruleChanges(stored, cleared), {
      expiresAt: null,
      maxClicks: null,
      password: null,
      rules: null,
    });
    assert.deepEqual(ruleChanges(stored, readRuleForm({ password: 'new one' })), { password: 'new one' });
    assert.deepEqual(ruleChanges(link(), readRuleForm({ remove_password: '1' })), {}, 'none to remove');
  });
});
