/**
 * Blocklist files (SPEC §13, core/blocklist-format.ts): hosts files, plain lists and AdBlock host
 * rules, read line by line into host rules, with each line that gives none counted and told why.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { hostRule, parseBlocklist, ruleHost, type SkippedLine } from '../../src/core/blocklist-format.ts';

const exact = (host: string) => ({ host, subdomains: false });
const domain = (host: string) => ({ host, subdomains: true });
/** The reason the only line of `line` is skipped for. */
const reasonOf = (line: string): SkippedLine['reason'] | undefined => {
  const parsed = parseBlocklist(line);
  assert.equal(parsed.rules.length, 0, `${JSON.stringify(line)} gives no rule`);
  return parsed.skippedLines[0]?.reason;
};

describe('parseBlocklist: hosts files', () => {
  it('blocks each host of an address line exactly, ignoring the comment after it', () => {
    const parsed = parseBlocklist(
      '0.0.0.0 ads.example.com tracker.example # trackers\n127.0.0.1\tEvil.Example\n',
    );
    assert.deepEqual(parsed.rules, [
      exact('ads.example.com'),
      exact('tracker.example'),
      exact('evil.example'),
    ]);
    assert.equal(parsed.applied, 2);
    assert.equal(parsed.skipped, 0);
    assert.equal(parsed.lines, 2);
  });

  it('reads IPv6 addresses as the address of a hosts line', () => {
    const parsed = parseBlocklist(':: ads.example\n::1 tracker.example');
    assert.deepEqual(parsed.rules, [exact('ads.example'), exact('tracker.example')]);
  });

  it('skips the names hosts files give the machine itself as local-name', () => {
    const text = [
      '127.0.0.1 localhost',
      '127.0.0.1 localhost.localdomain',
      '255.255.255.255 broadcasthost',
      '::1 localhost ip6-localhost ip6-loopback',
      'fe00::0 ip6-localnet',
      '0.0.0.0 0.0.0.0',
      '127.0.0.1 local',
      '0.0.0.0 router',
    ].join('\n');
    const parsed = parseBlocklist(text);
    assert.deepEqual(parsed.rules, []);
    assert.equal(parsed.skipped, 8);
    assert.ok(parsed.skippedLines.every((skipped) => skipped.reason === 'local-name'));
  });

  it('applies a line when one of its hosts is a site, dropping the local names beside it', () => {
    const parsed = parseBlocklist('127.0.0.1 localhost ads.example');
    assert.deepEqual(parsed.rules, [exact('ads.example')]);
    assert.equal(parsed.applied, 1);
    assert.equal(parsed.skipped, 0);
  });
});

describe('parseBlocklist: AdBlock rules', () => {
  it('blocks ||host^ with all its subdomains', () => {
    assert.deepEqual(parseBlocklist('||Evil.Example^\n||tracker.example^|').rules, [
      domain('evil.example'),
      domain('tracker.example'),
    ]);
  });

  it('accepts options that still mean the whole host, and skips the others as options', () => {
    const parsed = parseBlocklist(
      '||a.example^$important\n||b.example^$document,popup\n||c.example^$all,doc\n||d.example^$third-party\n||e.example^$important,script',
    );
    assert.deepEqual(parsed.rules, [domain('a.example'), domain('b.example'), domain('c.example')]);
    assert.deepEqual(parsed.skippedLines, [
      { line: 4, reason: 'options' },
      { line: 5, reason: 'options' },
    ]);
  });

  it('skips exceptions, cosmetic rules and rules for URLs or paths', () => {
    assert.equal(reasonOf('@@||good.example^'), 'exception');
    assert.equal(reasonOf('example.com##.banner'), 'cosmetic');
    assert.equal(reasonOf('example.com#@#.banner'), 'cosmetic');
    assert.equal(reasonOf('example.com#?#div:has(.ad)'), 'cosmetic');
    assert.equal(reasonOf('|http://evil.example/'), 'url');
    assert.equal(reasonOf('||evil.example/ads/'), 'url');
    assert.equal(reasonOf('||evil.example^*/banner'), 'url');
    assert.equal(reasonOf('||ad*.example^'), 'wildcard');
  });

  it('treats [Adblock Plus 2.0] headers and ! comments as neither applied nor skipped', () => {
    const parsed = parseBlocklist('[Adblock Plus 2.0]\n! Title: test\n||evil.example^');
    assert.deepEqual(parsed.rules, [domain('evil.example')]);
    assert.equal(parsed.applied, 1);
    assert.equal(parsed.skipped, 0);
    assert.equal(parsed.lines, 3);
  });
});

describe('parseBlocklist: plain lists', () => {
  it('blocks a bare host, *.host and .host with all their subdomains', () => {
    assert.deepEqual(
      parseBlocklist('evil.example\n*.wild.example\n.dot.example\nEVIL.ORG.\nads.example.co1').rules,
      [
        domain('evil.example'),
        domain('wild.example'),
        domain('dot.example'),
        domain('evil.org'),
        domain('ads.example.co1'),
      ],
    );
  });

  it('ignores a comment after the host', () => {
    assert.deepEqual(parseBlocklist('evil.example # phishing').rules, [domain('evil.example')]);
  });

  it('blocks addresses exactly, IPv6 in brackets as a URL hostname has it', () => {
    const parsed = parseBlocklist('192.0.2.7\n2001:DB8::0:1\n[2001:db8::2]\n::ffff:192.0.2.1');
    const hosts = ['192.0.2.7', '2001:db8::1', '2001:db8::2', '::ffff:192.0.2.1'].map(
      (address) => new URL(`http://${address.includes(':') ? `[${address}]` : address}/`).hostname,
    );
    assert.deepEqual(parsed.rules, hosts.map(exact));
    assert.equal(parsed.rules[1]?.host, '[2001:db8::1]');
  });

  it('skips address ranges, URLs, wildcards and single-label names', () => {
    assert.equal(reasonOf('192.0.2.0/24'), 'ip-range');
    assert.equal(reasonOf('2001:db8::/32'), 'ip-range');
    assert.equal(reasonOf('192.0.2.1-192.0.2.9'), 'ip-range');
    assert.equal(reasonOf('https://evil.example/login'), 'url');
    assert.equal(reasonOf('http://evil.example'), 'url');
    assert.equal(reasonOf('evil.example/path'), 'url');
    assert.equal(reasonOf('ads.*.example'), 'wildcard');
    assert.equal(reasonOf('ad*.example'), 'wildcard');
    assert.equal(reasonOf('intranet'), 'local-name');
    assert.equal(reasonOf('localhost'), 'local-name');
  });

  it('stores internationalized names in punycode, and punycode as it is', () => {
    assert.deepEqual(parseBlocklist('bücher.example\nXN--BCHER-KVA.example\n0.0.0.0 Bücher.example').rules, [
      domain('xn--bcher-kva.example'),
      domain('xn--bcher-kva.example'),
      exact('xn--bcher-kva.example'),
    ]);
  });

  it('skips names too long as too-long and malformed ones as invalid', () => {
    assert.equal(reasonOf(`${'a'.repeat(64)}.example`), 'too-long');
    assert.equal(reasonOf(`${Array(64).fill('abc').join('.')}.example`), 'too-long');
    assert.equal(reasonOf('a..example'), 'invalid');
    assert.equal(reasonOf('evil.example:8080'), 'invalid');
    assert.equal(reasonOf('ev il.example'), 'invalid');
    assert.equal(reasonOf('ev%69l.example'), 'invalid');
    assert.equal(reasonOf('1.2.3'), 'invalid');
    assert.equal(reasonOf('999.1.1.1'), 'invalid');
    assert.equal(reasonOf('bad\u0000.example'), 'invalid');
    assert.equal(reasonOf(`${'a'.repeat(5000)}.example`), 'invalid');
  });
});

describe('parseBlocklist: files', () => {
  it('reads CRLF, a BOM, blank lines and comments, numbering lines from 1', () => {
    const parsed = parseBlocklist(
      '\uFEFF# list\r\n\r\nevil.example\r\n   \r\nhttp://x.example/\r\n0.0.0.0 ads.example\r\n',
    );
    assert.deepEqual(parsed.rules, [domain('evil.example'), exact('ads.example')]);
    assert.deepEqual(parsed.skippedLines, [{ line: 5, reason: 'url' }]);
    assert.equal(parsed.applied, 2);
    assert.equal(parsed.skipped, 1);
    assert.equal(parsed.lines, 6);
  });

  it('reads a file mixing the three formats', () => {
    const text = [
      '! adblock',
      '||a.example^',
      '# hosts',
      '0.0.0.0 b.example',
      'c.example',
      '@@||d.example^',
    ].join('\n');
    const parsed = parseBlocklist(text);
    assert.deepEqual(parsed.rules, [domain('a.example'), exact('b.example'), domain('c.example')]);
    assert.deepEqual(parsed.skippedLines, [{ line: 6, reason: 'exception' }]);
  });

  it('counts an empty file as no lines', () => {
    assert.deepEqual(parseBlocklist(''), { rules: [], applied: 0, skipped: 0, skippedLines: [], lines: 0 });
  });

  it('lists at most the first 1000 skipped lines but counts them all', () => {
    const parsed = parseBlocklist(Array(1500).fill('@@||a.example^').join('\n'));
    assert.equal(parsed.skipped, 1500);
    assert.equal(parsed.skippedLines.length, 1000);
    assert.equal(parsed.skippedLines[999]?.line, 1000);
  });

  it('survives random bytes read as latin1', () => {
    const parsed = parseBlocklist(randomBytes(256 * 1024).toString('latin1'));
    assert.ok(parsed.applied + parsed.skipped <= parsed.lines);
  });

  it('reads a file of a million lines', () => {
    const line = (i: number) =>
      [`0.0.0.0 ads${i}.tracker.example`, `||cdn${i}.evil.example^`, `host${i}.example.org`, `# ${i}`][i % 4];
    const parsed = parseBlocklist(Array.from({ length: 1_000_000 }, (_, i) => line(i)).join('\n'));
    assert.equal(parsed.lines, 1_000_000);
    assert.equal(parsed.applied, 750_000);
    assert.equal(parsed.skipped, 0);
    assert.equal(parsed.rules.length, 750_000);
  });

  it('never throws, and never counts more lines applied or skipped than there are', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom(
        '||',
        '^',
        '$',
        '@@',
        '##',
        '#',
        '*.',
        '.',
        '[',
        ']',
        '::',
        '/',
        ' ',
        '\r\n',
        '\n',
        '\uFEFF',
      ),
      fc.domain(),
      fc.ipV4(),
      fc.ipV6(),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const parsed = parseBlocklist(pieces.join(''));
        assert.ok(parsed.applied + parsed.skipped <= parsed.lines);
        assert.ok(parsed.rules.every((rule) => ruleHost(rule.host) === rule.host));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('hostRule', () => {
  it('reads one host as an operator types it', () => {
    assert.deepEqual(hostRule('evil.example'), domain('evil.example'));
    assert.deepEqual(hostRule(' *.Evil.Example '), domain('evil.example'));
    assert.deepEqual(hostRule('||evil.example^'), domain('evil.example'));
    assert.deepEqual(hostRule('bücher.example'), domain('xn--bcher-kva.example'));
    assert.deepEqual(hostRule('192.0.2.7'), exact('192.0.2.7'));
    assert.deepEqual(hostRule('2001:db8::1'), exact('[2001:db8::1]'));
  });

  it('refuses what is no single host', () => {
    for (const input of [
      '',
      'localhost',
      'https://evil.example/',
      '192.0.2.0/24',
      'a*.example',
      '# x',
      'a b',
    ]) {
      assert.equal(hostRule(input), undefined, input);
    }
  });
});

describe('ruleHost', () => {
  it('gives a URL hostname the form rules are stored in', () => {
    for (const url of [
      'http://EVIL.example./',
      'http://bücher.example/',
      'http://[2001:DB8::1]/',
      'http://192.0.2.7/',
    ]) {
      const host = new URL(url).hostname;
      const rule = hostRule(host.startsWith('[') ? host : host.replace(/\.$/, ''));
      assert.equal(ruleHost(host), rule?.host, url);
    }
    assert.equal(ruleHost('localhost'), 'localhost');
    assert.equal(ruleHost('::1'), '[::1]');
  });

  it('refuses what is no host name', () => {
    for (const input of ['', 'a b', 'a..b', 'x:y', `${'a'.repeat(300)}.example`]) {
      assert.equal(ruleHost(input), undefined, input);
    }
  });
});
