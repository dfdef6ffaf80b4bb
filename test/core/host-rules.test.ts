/**
 * The blocklist's matching set (SPEC §13, core/host-rules.ts): a host is blocked when it is a rule's
 * host, or when one of its parent domains is blocked with its subdomains.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { HostRule } from '../../src/core/blocklist-format.ts';
import { HostRuleSet } from '../../src/core/host-rules.ts';

/** The same meaning built on a set of strings: the host, or any parent of it, among the rules. */
function reference(rules: readonly HostRule[]) {
  const exact = new Set(rules.filter((rule) => !rule.subdomains).map((rule) => rule.host));
  const domains = new Set(rules.filter((rule) => rule.subdomains).map((rule) => rule.host));
  return (host: string) => {
    if (exact.has(host) || domains.has(host)) return true;
    for (let dot = host.indexOf('.'); dot >= 0; dot = host.indexOf('.', dot + 1)) {
      if (domains.has(host.slice(dot + 1))) return true;
    }
    return false;
  };
}

describe('HostRuleSet', () => {
  it('matches a domain rule, its subdomains at any depth, and nothing that only looks alike', () => {
    const set = HostRuleSet.of([{ host: 'evil.example', subdomains: true }]);
    assert.equal(set.matches('evil.example'), true);
    assert.equal(set.matches('www.evil.example'), true);
    assert.equal(set.matches('a.b.evil.example'), true);
    assert.equal(set.matches('notevil.example'), false);
    assert.equal(set.matches('evil.example.com'), false);
    assert.equal(set.matches('example'), false);
    assert.equal(set.matches('vil.example'), false);
  });

  it('matches an exact rule only for its own host', () => {
    const set = HostRuleSet.of([{ host: 'ads.example', subdomains: false }]);
    assert.equal(set.matches('ads.example'), true);
    assert.equal(set.matches('www.ads.example'), false);
    assert.equal(set.matches('example'), false);
  });

  it('matches addresses exactly', () => {
    const set = HostRuleSet.of([
      { host: '192.0.2.7', subdomains: false },
      { host: '[2001:db8::1]', subdomains: false },
    ]);
    assert.equal(set.matches('192.0.2.7'), true);
    assert.equal(set.matches('[2001:db8::1]'), true);
    assert.equal(set.matches('92.0.2.7'), false);
    assert.equal(set.matches('[2001:db8::2]'), false);
  });

  it('keeps a host blocked both exactly and with its subdomains as two rules in one entry', () => {
    const set = new HostRuleSet();
    set.add('evil.example', false);
    assert.equal(set.matches('a.evil.example'), false);
    set.add('evil.example', true);
    set.add('evil.example', true);
    assert.equal(set.size, 2);
    assert.equal(set.matches('evil.example'), true);
    assert.equal(set.matches('a.evil.example'), true);
  });

  it('matches nothing when empty, and refuses changes to the shared empty set', () => {
    assert.equal(HostRuleSet.EMPTY.size, 0);
    assert.equal(HostRuleSet.EMPTY.matches('evil.example'), false);
    assert.equal(new HostRuleSet().matches(''), false);
    assert.throws(() => HostRuleSet.EMPTY.add('evil.example', true), TypeError);
    assert.equal(HostRuleSet.EMPTY.matches('evil.example'), false);
  });

  it('keeps every rule through many growths of its table', () => {
    const set = new HostRuleSet();
    const count = 100_000;
    for (let i = 0; i < count; i++) set.add(`host${i}.example`, i % 2 === 0);
    assert.equal(set.size, count);
    for (let i = 0; i < count; i++) {
      assert.equal(set.matches(`host${i}.example`), true);
      assert.equal(set.matches(`www.host${i}.example`), i % 2 === 0);
      assert.equal(set.matches(`host${i}.example.org`), false);
    }
  });

  it('answers as a set of strings does, for any rules and hosts', () => {
    const label = fc.constantFrom('a', 'b', 'c', 'ab', 'www', 'evil', 'x-y', '1');
    const host = fc.array(label, { minLength: 1, maxLength: 5 }).map((labels) => labels.join('.'));
    const rule = fc.record({ host, subdomains: fc.boolean() });
    fc.assert(
      fc.property(fc.array(rule, { maxLength: 40 }), fc.array(host, { maxLength: 40 }), (rules, hosts) => {
        const set = HostRuleSet.of(rules);
        const expected = reference(rules);
        for (const candidate of [...hosts, ...rules.map((r) => r.host)]) {
          assert.equal(set.matches(candidate), expected(candidate), candidate);
        }
        assert.equal(set.size, new Set(rules.map((r) => `${r.subdomains}:${r.host}`)).size);
      }),
      { numRuns: 500 },
    );
  });
});
