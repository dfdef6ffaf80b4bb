import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CliDeps } from '../../../src/cli.ts';
import type { Link } from '../../../src/core/entities.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { urlHash } from '../../../src/core/target-url.ts';
import { readImportFile } from '../../../src/features/imports/import-formats.ts';
import { importLinks } from '../../../src/features/imports/import-links.ts';
import { FakeInspector, runSnip, withStoreAt } from '../../fixtures/cli-harness.ts';

/** `snip link import` (docs/api.md §8.4), run in this process with an inspector that never fetches. */

const FIXTURES = join(import.meta.dirname, '../../fixtures/import');

let dir: string;
let env: Record<string, string>;

const snipWith = (deps: CliDeps, ...argv: string[]) => runSnip(env, deps, argv);

/** Every run gets an inspector: a test that forgets --no-inspect still fetches nothing. */
const snip = (...argv: string[]) => snipWith({ inspector: new FakeInspector() }, ...argv);

const withStore = <T>(use: (store: Store) => Promise<T>) => withStoreAt(env.DATABASE_URL as string, use);

let accounts = 0;
/** A fresh account on the plan (pro: 10,000 links); its email. */
async function newAccount(plan = 'pro'): Promise<string> {
  accounts += 1;
  const email = `importer${accounts}@example.com`;
  assert.equal((await snip('account', 'create', email, '--plan', plan, '--json')).code, 0);
  return email;
}

let files = 0;
async function fileWith(text: string, extension = 'csv'): Promise<string> {
  files += 1;
  const path = join(dir, `rows-${files}.${extension}`);
  await writeFile(path, text);
  return path;
}

interface Listed {
  short_code: string;
  long_url: string;
  title: string;
  group: string | null;
  tags: string[];
}

async function linksOf(email: string): Promise<Map<string, Listed>> {
  const { json } = await snip('link', 'list', email, '--limit', '1000', '--json');
  return new Map((json.items as Listed[]).map((link) => [link.long_url, link]));
}

/** The row lines of a human run: `line N: …`. */
const rowLines = (out: string) => out.split('\n').filter((line) => line.startsWith('line '));

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'snip-import-'));
  env = { DATABASE_URL: `sqlite:${join(dir, 'snip.db')}`, BASE_URL: 'https://sn.ip' };
  assert.equal((await snip('migrate', '--json')).code, 0);
});
after(() => rm(dir, { recursive: true, force: true }));

describe('snip link import: the formats', () => {
  it('imports a CSV with a byte order mark, CRLF, a header, groups, tags and quoted fields', async () => {
    const email = await newAccount();
    const { code, json, err } = await snip(
      'link',
      'import',
      email,
      join(FIXTURES, 'snip.csv'),
      '--no-inspect',
      '--json',
    );
    assert.equal(code, 0);
    assert.deepEqual([json.imported, json.refused, json.skipped, json.rows, json.lines], [4, 1, 0, 5, 6]);
    assert.deepEqual(json.refusals, [
      { line: 5, code: '310', error: 'Links to social networks are not accepted.' },
    ]);
    assert.deepEqual(json.groups_created, ['Spring Sale', 'ops']);
    assert.match(err, /^line 5: 310 /m, 'with --json the row lines go to stderr');
    const links = await linksOf(email);
    assert.deepEqual(links.get('https://example.com/spring'), {
      ...links.get('https://example.com/spring'),
      short_code: 'spring-26',
      title: 'Spring sale',
      group: 'spring-sale',
      tags: ['2026', 'promo'],
    });
    const quoted = links.get('https://example.com/q?a=1,2');
    assert.equal(quoted?.title, 'Quote "this", please — naïve café');
    assert.deepEqual([quoted?.group, quoted?.tags], ['spring-sale', ['fr', 'promo']]);
    assert.equal(links.get('https://example.org/plain')?.title, '', 'no title without inspection');
    assert.equal(links.get('https://example.net/ops')?.short_code, 'ops-1');
  });

  it("imports Shlink's CSV export: short codes kept, tags split on |, a reserved code replaced", async () => {
    const email = await newAccount();
    const { code, out } = await snip(
      'link',
      'import',
      email,
      join(FIXTURES, 'shlink.csv'),
      '--format',
      'shlink',
      '--no-inspect',
    );
    assert.equal(code, 0);
    const lines = rowLines(out);
    assert.equal(lines.length, 2);
    assert.match(
      lines[0] as string,
      /^line 4: imported as [0-9A-Za-z]{7}; the code "docs" is a path of Snip itself$/,
    );
    assert.match(lines[1] as string, /^line 5: 310 /);
    assert.match(out, /^imported: 3$/m);
    const links = await linksOf(email);
    const search = links.get('https://example.com/search?q=a,b&lang=de');
    assert.deepEqual(
      [search?.short_code, search?.title, search?.tags],
      ['Ab3x9', 'Suche: "Äpfel, Birnen" – Ergebnisse', ['food', 'über']],
    );
    assert.deepEqual(links.get('https://example.com/guide')?.tags, ['docs', 'guides']);
  });

  it('imports the YOURLS table and the Import/Export plugin CSV, keywords as slugs', async () => {
    const email = await newAccount();
    const table = await snip(
      'link',
      'import',
      email,
      join(FIXTURES, 'yourls.csv'),
      '--format',
      'yourls',
      '--no-inspect',
      '--json',
    );
    assert.deepEqual([table.code, table.json.imported, table.json.refused], [0, 4, 0]);
    assert.deepEqual(
      (table.json.replaced as { line: number; wanted: string }[]).map(({ line, wanted }) => [line, wanted]),
      [[4, '1']],
    );
    const plugin = await snip(
      'link',
      'import',
      email,
      join(FIXTURES, 'yourls-plugin.csv'),
      '--format',
      'yourls',
      '--no-inspect',
      '--json',
    );
    assert.deepEqual([plugin.code, plugin.json.imported, plugin.json.codes_replaced], [0, 3, 1]);
    const links = await linksOf(email);
    assert.equal(links.get('https://ozh.org/')?.short_code, 'ozh');
    assert.equal(links.get('https://yourls.org/')?.title, 'YOURLS: Your Own URL Shortener');
    assert.equal(links.get('https://example.net/first')?.title, 'Le "premier", lien — été');
    assert.equal(links.get('https://example.net/search?q=a,b')?.short_code, 'x-files');
    assert.equal(links.get('https://example.net/brochure.pdf')?.short_code, 'brochure');
  });

  it("imports Kutt's JSON list, an entry without a target refused at the line it starts on", async () => {
    const email = await newAccount();
    const { code, json } = await snip(
      'link',
      'import',
      email,
      join(FIXTURES, 'kutt.json'),
      '--format',
      'kutt',
      '--no-inspect',
      '--json',
    );
    assert.equal(code, 0);
    assert.deepEqual([json.imported, json.refused, json.codes_replaced], [3, 1, 2]);
    assert.deepEqual(json.refusals, [{ line: 18, code: '300', error: 'This entry has no target URL.' }]);
    assert.deepEqual(
      (json.replaced as { line: number; wanted: string }[]).map(({ line, wanted }) => [line, wanted]),
      [
        [29, 'x7'],
        [42, 'about'],
      ],
    );
    const promo = (await linksOf(email)).get('https://shop.example.com/promo?utm_source=kutt&x=1,2');
    assert.deepEqual([promo?.short_code, promo?.title], ['promo', 'Spring promo, "50% off" ✨ Frühling']);
  });

  it('refuses a file that is not of its format as a whole, and an unknown format as usage', async () => {
    const email = await newAccount();
    const noHeader = await fileWith('https://example.com/a,abc\n');
    const shlink = await snip('link', 'import', email, noHeader, '--format', 'shlink', '--json');
    assert.deepEqual([shlink.code, shlink.json.code], [1, '300']);
    const notJson = await fileWith('{"data": [', 'json');
    const kutt = await snip('link', 'import', email, notJson, '--format', 'kutt', '--json');
    assert.deepEqual([kutt.code, kutt.json.code], [1, '300']);
    const missing = await snip('link', 'import', email, join(dir, 'nothing-here.csv'), '--json');
    assert.deepEqual([missing.code, missing.json.code], [1, '300']);
    const format = await snip('link', 'import', email, noHeader, '--format', 'bitly');
    assert.equal(format.code, 64);
    assert.match(format.err, /usage: snip link import/);
    assert.equal((await snip('link', 'import', 'nobody@example.com', noHeader, '--json')).code, 1);
    assert.equal((await linksOf(email)).size, 0);
  });
});

describe('snip link import --help', () => {
  it('answers with its own usage, naming the formats, and is listed under snip link --help', async () => {
    const { code, out } = await snip('link', 'import', '--help');
    assert.equal(code, 0);
    assert.ok(
      out.startsWith(
        'usage: snip link import <email> <file> [--format csv|shlink|yourls|kutt] [--no-inspect]',
      ),
    );
    assert.match((await snip('link', '--help')).out, /snip link import/);
    assert.match((await snip('--help')).out, /snip link import/);
  });
});

describe('snip link import: rows', () => {
  it('reports each refused row with its line and code, and imports the rest', async () => {
    const email = await newAccount();
    const path = await fileWith(
      [
        'https://example.com/ok-1',
        ',slug-only',
        'not a url',
        'https://twitter.com/someone',
        'https://sn.ip/loop',
        'https://example.com/no-group,,999999',
        'https://example.com/bad"quote',
        '"https://example.com/unclosed',
        'https://example.com/ok-3,,,"a title that',
        'spans two lines"',
        'https://example.com/ok-4,,,,"promo,fine"',
        'https://example.com/too,many,fields,here,tag1,tag2',
        'https://example.com/bad-tag,,,,"no!"',
        'https://example.com/ok-5',
        'https://example.com/ok-1',
        '',
      ].join('\n'),
    );
    const { code, out } = await snip('link', 'import', email, path, '--no-inspect');
    assert.equal(code, 0);
    const codes = rowLines(out).map((line) => line.replace(/^line (\d+): (\S+).*$/, '$1 $2'));
    assert.deepEqual(codes, [
      '2 302',
      '3 300',
      '4 310',
      '5 305',
      '6 312',
      '7 300',
      '8 300',
      '9 300',
      '12 300',
      '13 300',
      '15 already',
    ]);
    assert.match(out, /^line 7: 300 This line is not valid CSV/m);
    assert.match(out, /^line 15: already imported as \S+$/m);
    assert.match(out, /^imported: 3$/m);
    assert.match(out, /^refused: 10$/m);
    assert.match(out, /^skipped: 1$/m);
    const links = await linksOf(email);
    assert.deepEqual([...links.keys()].sort(), [
      'https://example.com/ok-1',
      'https://example.com/ok-4',
      'https://example.com/ok-5',
    ]);
    assert.deepEqual(links.get('https://example.com/ok-4')?.tags, ['fine', 'promo']);
  });

  it('creates nothing when run again: every row says it is already there', async () => {
    const email = await newAccount();
    await seedLink('someone-else@example.com', 'held-1', 'https://example.com/other');
    const path = await fileWith(
      'url,slug,group,title,tags\n' +
        'https://example.com/r1,r-one,Reruns,,\n' +
        'https://example.com/r2,held-1,,,\n' +
        'https://example.com/r3,,,Third,x|y\n' +
        'https://example.com/r4,ab,,,\n' +
        'https://facebook.com/r5,,,,\n',
    );
    const first = await snip('link', 'import', email, path, '--no-inspect', '--json');
    assert.deepEqual([first.json.imported, first.json.refused, first.json.skipped], [4, 1, 0]);
    const before = await linksOf(email);
    const again = await snip('link', 'import', email, path, '--no-inspect');
    assert.equal(again.code, 0);
    const lines = rowLines(again.out);
    assert.deepEqual(lines, [
      'line 2: already imported as r-one',
      `line 3: already imported as ${before.get('https://example.com/r2')?.short_code}`,
      `line 4: already imported as ${before.get('https://example.com/r3')?.short_code}`,
      `line 5: already imported as ${before.get('https://example.com/r4')?.short_code}`,
      'line 6: 310 Links to social networks are not accepted.',
    ]);
    assert.match(again.out, /^imported: 0$/m);
    assert.match(again.out, /^skipped: 4$/m);
    assert.match(again.out, /^groups_created: \(none\)$/m);
    assert.deepEqual(await linksOf(email), before);
  });

  it('keeps a free code as the slug and draws a fresh one for a taken code, saying so', async () => {
    const email = await newAccount();
    await seedLink('holder@example.com', 'taken-code', 'https://example.com/held');
    const path = await fileWith(
      'https://example.com/keep,keep-me\nhttps://example.com/swap,taken-code\nhttps://example.com/sale,Sale\n',
    );
    const { out } = await snip('link', 'import', email, path, '--no-inspect');
    const links = await linksOf(email);
    const swapped = links.get('https://example.com/swap')?.short_code;
    assert.deepEqual(rowLines(out), [`line 2: imported as ${swapped}; the code "taken-code" is taken`]);
    assert.match(swapped ?? '', /^[0-9A-Za-z]{7}$/);
    assert.equal(links.get('https://example.com/keep')?.short_code, 'keep-me');
    assert.equal(links.get('https://example.com/sale')?.short_code, 'Sale', 'codes are case-sensitive');
  });

  it('finds groups by ID, API identifier or name, and creates a missing one by its name once', async () => {
    const email = await newAccount();
    const made = await snip('group', 'create', email, 'Launch Week', '--api-id', 'launch', '--json');
    const id = String(made.json.id);
    const path = await fileWith(
      [
        'group,url',
        `${id},https://example.com/g1`,
        'launch,https://example.com/g2',
        'launch week,https://example.com/g3',
        'Brand New,https://example.com/g4',
        'brand new,https://example.com/g5',
        '424242,https://example.com/g6',
        'Brand New,not a url',
      ].join('\n'),
    );
    const { json } = await snip('link', 'import', email, path, '--no-inspect', '--json');
    assert.deepEqual(json.groups_created, ['Brand New']);
    assert.deepEqual(
      (json.refusals as { line: number; code: string }[]).map(({ line, code }) => [line, code]),
      [
        [7, '312'],
        [8, '300'],
      ],
    );
    const links = await linksOf(email);
    assert.deepEqual(
      ['g1', 'g2', 'g3', 'g4', 'g5'].map((page) => links.get(`https://example.com/${page}`)?.group),
      ['launch', 'launch', 'launch', 'brand-new', 'brand-new'],
    );
    const again = await snip('link', 'import', email, path, '--no-inspect', '--json');
    assert.deepEqual([again.json.skipped, again.json.groups_created], [5, []]);
  });

  it('stops creating at the quota and says so on every further row and in the totals', async () => {
    assert.equal((await snip('plan', 'create', 'three', '--url-quota', '3', '--json')).code, 0);
    const email = await newAccount('three');
    const rows = [1, 2, 3, 4, 5].map((n) => `https://example.com/q${n}`);
    const path = await fileWith(`${rows.join('\n')}\n`);
    const { code, json } = await snip('link', 'import', email, path, '--no-inspect', '--json');
    assert.equal(code, 0);
    assert.deepEqual([json.imported, json.refused, json.quota_reached], [3, 2, true]);
    assert.deepEqual(
      (json.refusals as { code: string }[]).map((refusal) => refusal.code),
      ['304', '304'],
    );
    assert.equal((await linksOf(email)).size, 3);
    const again = await snip('link', 'import', email, path, '--no-inspect', '--json');
    assert.deepEqual([again.json.imported, again.json.skipped, again.json.refused], [0, 3, 2]);
  });
});

describe('snip link import: inspection', () => {
  it('inspects each target unless --no-inspect, which fetches nothing', async () => {
    const path = await fileWith(
      'https://example.com/fine,,,\nhttps://example.com/gone,,,\nhttps://example.com/named,,,My own title\n',
    );
    const inspector = new FakeInspector((url) =>
      url.pathname === '/gone'
        ? { ok: false, code: '307', reason: 'the page answers 404' }
        : { ok: true, title: 'Page title', finalUrl: url.href, status: 200 },
    );
    const inspected = await newAccount();
    const { json } = await snipWith({ inspector }, 'link', 'import', inspected, path, '--json');
    assert.deepEqual([json.imported, json.refused], [2, 1]);
    assert.equal((json.refusals as { line: number; code: string }[])[0]?.line, 2);
    assert.equal((json.refusals as { line: number; code: string }[])[0]?.code, '307');
    assert.deepEqual(inspector.asked.sort(), [
      'https://example.com/fine',
      'https://example.com/gone',
      'https://example.com/named',
    ]);
    const links = await linksOf(inspected);
    assert.equal(links.get('https://example.com/fine')?.title, 'Page title');
    assert.equal(
      links.get('https://example.com/named')?.title,
      'My own title',
      "a title given wins over the page's",
    );

    const unfetched = new FakeInspector();
    const plain = await newAccount();
    const skipped = await snipWith(
      { inspector: unfetched },
      'link',
      'import',
      plain,
      path,
      '--no-inspect',
      '--json',
    );
    assert.deepEqual([skipped.json.imported, skipped.json.refused], [3, 0]);
    assert.deepEqual(unfetched.asked, []);
  });

  it('stops at a fault, names the last line done, and exits 69; a second run goes on', async () => {
    const email = await newAccount();
    const rows = Array.from({ length: 30 }, (_, n) => `https://example.com/f${n + 1}`);
    const path = await fileWith(`${rows.join('\n')}\n`);
    const broken = new FakeInspector((url) => {
      if (url.pathname === '/f20') throw new Error('the disk is gone');
      return { ok: true, title: '', finalUrl: url.href, status: 200 };
    });
    const { code, json, err } = await snipWith(
      { inspector: broken },
      'link',
      'import',
      email,
      path,
      '--json',
    );
    assert.equal(code, 69);
    assert.match(String(json.error), /stopped after line 19 \(the disk is gone\)/);
    assert.match(err, /19 imported/);
    const links = await linksOf(email);
    for (let n = 1; n <= 19; n++) assert.ok(links.has(`https://example.com/f${n}`), `f${n}`);
    const rerun = await snip('link', 'import', email, path, '--no-inspect', '--json');
    assert.equal(rerun.code, 0);
    assert.equal(rerun.json.skipped, links.size);
    assert.equal((rerun.json.imported as number) + (rerun.json.skipped as number), 30);
  });
});

describe('snip link import: a thousand rows', () => {
  it('round-trips 1,000 CSV rows: each link as its row says, and nothing new the second time', async () => {
    const email = await newAccount();
    const rows = Array.from({ length: 1000 }, (_, n) => ({
      url: `https://example.com/bulk/${n}?q=${n % 7}`,
      slug: n % 2 === 0 ? `bulk-${n}` : '',
      group: n % 10 === 0 ? `Bulk ${n % 3}` : '',
      title: n % 3 === 0 ? `Row ${n}, "quoted"` : '',
      tags: n % 4 === 0 ? ['bulk', `t${n % 5}`] : [],
    }));
    const quote = (value: string) => (/[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
    const text = rows
      .map((row) => [row.url, row.slug, row.group, row.title, row.tags.join('|')].map(quote).join(','))
      .join('\r\n');
    const path = await fileWith(text);
    const first = await snip('link', 'import', email, path, '--no-inspect', '--json');
    assert.deepEqual([first.json.imported, first.json.refused, first.json.rows], [1000, 0, 1000]);
    const links = await linksOf(email);
    assert.equal(links.size, 1000);
    for (const row of rows) {
      const link = links.get(row.url);
      assert.ok(link, row.url);
      if (row.slug) assert.equal(link.short_code, row.slug);
      assert.equal(link.title, row.title);
      assert.deepEqual(link.tags, [...row.tags].sort());
      assert.equal(link.group, row.group ? row.group.toLowerCase().replace(' ', '-') : null);
    }
    const again = await snip('link', 'import', email, path, '--no-inspect', '--json');
    assert.deepEqual([again.json.imported, again.json.skipped, again.json.refused], [0, 1000, 0]);
  });
});

/** A link stored directly in another account (made on first use), as the API would have made it. */
async function seedLink(email: string, code: string, url: string): Promise<void> {
  await withStore(async (store) => {
    let account = await store.findAccountByEmail(email);
    if (!account) {
      const plan = await store.findPlanByName('pro');
      assert.ok(plan);
      const created = await store.createAccount(email, plan.id, null);
      assert.equal(created.kind, 'created');
      account = await store.findAccountByEmail(email);
    }
    assert.ok(account);
    const inserted = await store.insertLinkWithinQuota({
      code,
      domainId: 0,
      workspaceId: account.workspace.id,
      groupId: null,
      longUrl: url,
      normalizedUrl: url,
      urlHash: urlHash(url),
      title: '',
    });
    assert.equal(inserted.kind, 'created');
  });
}

describe('importLinks', () => {
  it('tells how far a long import has got, in rows and lines', async () => {
    const file = readImportFile('url\nhttps://example.com/1\nhttps://example.com/2\n', 'csv');
    const progress: string[] = [];
    let made = 0;
    const account = {
      id: 1,
      slug: 'p-1',
      name: 'p@example.com',
      plan: { id: 1, name: 'pro', apiAccess: true, urlQuota: 10, rateLimitPerHour: 10 },
      personalOf: 1,
      defaultDomain: null,
      suspended: null,
      timezone: 'UTC',
      trackConversions: false,
      createdAt: new Date(0),
    };
    const summary = await importLinks(
      {
        store: {
          isCodeIssued: async () => false,
          findLinkOfWorkspace: async () => undefined,
          findGroupOfWorkspace: async () => undefined,
          createGroup: async () => ({ kind: 'api-id-taken' }),
          listGroups: async () => [],
        },
        createAs: async () => ({ code: `code${++made}` }) as Link,
      },
      account,
      file,
      { row: () => {}, progress: (text) => progress.push(text) },
      { progressEveryMs: 0 },
    );
    assert.equal(summary.imported, 2);
    assert.deepEqual(progress, [
      '1 of 2 rows done (line 2 of 3): 1 imported, 0 already there, 0 refused…',
      '2 of 2 rows done (line 3 of 3): 2 imported, 0 already there, 0 refused…',
    ]);
  });
});

describe('snip link import: a file of many refused rows', () => {
  it('prints the first 20 of each code, counts them all by code, and reports every one with --report', async () => {
    const email = await newAccount();
    const rows = [
      ...Array.from({ length: 45 }, (_, i) => `https://twitter.com/status/${i}`),
      ...Array.from({ length: 25 }, (_, i) => `ftp://example.com/${i}`),
      'https://example.com/kept',
    ];
    const path = await fileWith(`${rows.join('\n')}\n`);
    const report = join(dir, 'report.txt');
    const human = await snip('link', 'import', email, path, '--no-inspect', '--report', report);
    assert.equal(human.code, 0);
    const printed = rowLines(human.out);
    assert.equal(printed.filter((line) => / 310 /.test(line)).length, 20);
    assert.equal(printed.filter((line) => / 300 /.test(line)).length, 20);
    const reported = (await readFile(report, 'utf8')).trim().split('\n');
    assert.equal(reported.length, 70);
    assert.equal(reported.filter((line) => / 310 /.test(line)).length, 45);

    const again = await snip('link', 'import', email, path, '--no-inspect', '--json');
    assert.equal(again.code, 0);
    assert.deepEqual(again.json.refused_by_code, { '300': 25, '310': 45 });
    const listed = again.json.refusals as { code: string }[];
    assert.equal(listed.filter((refusal) => refusal.code === '310').length, 20);
    assert.equal(listed.filter((refusal) => refusal.code === '300').length, 20);
    assert.equal(again.json.skipped, 1);
  });

  it('refuses a report it cannot write before importing anything', async () => {
    const email = await newAccount();
    const path = await fileWith('https://example.com/never\n');
    const refused = await snip(
      'link',
      'import',
      email,
      path,
      '--report',
      join(dir, 'no-such-dir', 'r.txt'),
      '--json',
    );
    assert.equal(refused.code, 1);
    assert.equal(refused.json.code, '300');
    assert.equal((await linksOf(email)).size, 0);
  });
});
