import assert from 'node:assert/strict';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createJson } from '../../helper.ts';
import { abuseHarness } from './abuse-harness.ts';

/**
 * Blocklists (docs/api.md §13): imported in each format by `snip blocklist import`, added and removed
 * one by one; refused with 316 at /create (after 310) and /api/v1; an existing link whose host
 * becomes blocked answers the 410 page until the rule goes; a redirect hop to a blocked host is
 * refused without being fetched.
 */

const { state, ok, refused, create, eventually, until } = abuseHarness();

async function fileWith(name: string, text: string): Promise<string> {
  const path = join(tmpdir(), `snip-blocklist-${process.pid}-${name}`);
  await writeFile(path, text);
  return path;
}

describe('blocklists', () => {
  it('imports hosts, plain and AdBlock files, counting skipped lines by number', async () => {
    const hosts = await fileWith(
      'hosts',
      '\uFEFF# a hosts file\r\n127.0.0.1 localhost\r\n0.0.0.0 exact.example\r\n\r\n0.0.0.0 two.example three.example # two\r\n',
    );
    const imported = await ok('blocklist', 'import', 'hosts-list', hosts);
    assert.equal(imported.rules, 3);
    assert.deepEqual(imported.skipped_lines, [{ line: 2, reason: 'local-name' }]);
    const plain = await fileWith(
      'plain',
      'plain.example\n*.wild.example\nbücher.example\n1.2.3.0/24\n\u0000\u0001junk\n',
    );
    const second = await ok('blocklist', 'import', 'plain-list', plain);
    assert.equal(second.rules, 3);
    assert.deepEqual(
      (second.skipped_lines as Array<{ line: number }>).map((skip) => skip.line),
      [4, 5],
    );
    const adblock = await fileWith(
      'adblock',
      '[Adblock Plus 2.0]\n! comment\n||ads.example^\n@@||ok.example^\nexample.org##.ad\n',
    );
    const third = await ok('blocklist', 'import', 'adblock-list', adblock);
    assert.equal(third.rules, 1);
    const lists = (await ok('blocklist', 'list')).items as Array<{ name: string; rules: number }>;
    assert.deepEqual(
      lists.map((list) => [list.name, list.rules]),
      [
        ['adblock-list', 1],
        ['hosts-list', 3],
        ['plain-list', 3],
      ],
    );
  });

  it('refuses a blocked host with 316 after 310, on /create and /api/v1, subdomains included', async () => {
    await ok('blocklist', 'add', 'evil.example');
    const target = (host: string) => `http://${host}/page`;
    // The server reads the rules again within about a second of the change: wait for it, bounded.
    await until(async () => (await create(target('evil.example'))).body.code === '316');
    for (const host of [
      'evil.example',
      'deep.sub.evil.example',
      'exact.example',
      'ads.example',
      'xn--bcher-kva.example',
    ]) {
      const answer = await createJson(state.app, state.key, { url: target(host) });
      assert.equal(answer.status, 403, host);
      assert.equal(answer.body.error, '316', host);
      const api = await create(target(host));
      assert.equal(api.status, 403, host);
      assert.equal(api.body.code, '316', host);
    }
    // A social network is refused first (310), whatever the blocklists hold.
    await ok('blocklist', 'add', 'x.com');
    assert.equal((await createJson(state.app, state.key, { url: 'https://x.com/a' })).body.error, '310');
    // An exact host rule leaves its subdomains alone, and no rule matches by substring.
    for (const host of ['sub.exact.example', 'notevil.example', 'evil.example.org']) {
      const answer = await createJson(state.app, state.key, {
        url: state.target.url('/').replace('127.0.0.1', host),
      });
      assert.notEqual(answer.body.error, '316', host);
    }
  });

  it('answers 410 for an existing link once its host is blocked, and redirects again when the rule goes', async () => {
    const made = await create(state.target.url('/title'));
    assert.equal(made.status, 201);
    const code = String(made.body.short_code);
    await eventually(code, 302);
    await ok('blocklist', 'add', '127.0.0.1');
    const gone = await eventually(code, 410);
    assert.match(String(gone.body.raw), /href="\/report"/);
    assert.doesNotMatch(String(gone.body.raw), /127\.0\.0\.1/);
    const removed = await ok('blocklist', 'remove', '127.0.0.1');
    assert.equal(removed.removed, 1);
    await eventually(code, 302);
    // Removing it again changes nothing, and says so.
    assert.equal((await ok('blocklist', 'remove', '127.0.0.1')).removed, 0);
  });

  it('refuses a target whose redirect leads to a blocked host, never fetching that host', async () => {
    const hop = state.target.url(`/redirect-to?url=${encodeURIComponent('http://hop.evil.example/')}`);
    const answer = await create(hop);
    assert.equal(answer.status, 403);
    assert.equal(answer.body.code, '316');
  });

  it('refuses hosts that are none, and a list name that cannot be one', async () => {
    await refused('host-invalid', 'blocklist', 'add', 'not a host');
    await refused('blocklist-name-invalid', 'blocklist', 'import', 'Bad Name!', await fileWith('empty', ''));
  });
});

describe('blocklists from BLOCKLIST_URLS', () => {
  const served = 'fetched.example\n||fetched-too.example^\n';
  let server: Server;
  let url = '';
  before(async () => {
    server = createServer((_req, res) => res.end(served));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/lists/phish.txt`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  const fromUrls = abuseHarness({ env: () => ({ BLOCKLIST_URLS: url }) });

  it('fetches each list soon after start, through the SSRF-safe fetcher, and blocks its hosts', async () => {
    await fromUrls.until(
      async () => (await fromUrls.create('http://fetched-too.example/x')).body.code === '316',
    );
    const lists = (await fromUrls.ok('blocklist', 'list')).items as Array<{ name: string; source: string }>;
    assert.deepEqual(
      lists.map((list) => [list.name, list.source]),
      [['127.0.0.1-lists-phish.txt', url]],
    );
  });
});
