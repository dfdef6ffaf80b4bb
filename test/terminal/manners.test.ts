import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BASE_FLAGS, type Command, UsageError } from '../../src/terminal/command.ts';
import { commandTable } from '../../src/terminal/command-table.ts';
import { editDistance, nearest } from '../../src/terminal/nearest.ts';
import { runCommand } from '../../src/terminal/run-command.ts';

/**
 * How the command line answers words that make no command: the name or flag probably meant, the
 * one-line usage of that command (never the whole usage), and parseArgs's own wording never shown.
 */

const FLAGS = {
  ...BASE_FLAGS,
  plan: { type: 'string' },
  domain: { type: 'string' },
  group: { type: 'string' },
  limit: { type: 'string' },
  inspect: { type: 'boolean' },
} as const;

type Flags = typeof FLAGS;

/** A command that answers with what it was given. */
function echo(usage: Omit<Command<Flags, object>, 'load'>): Command<Flags, object> {
  return {
    ...usage,
    load: async () => ({
      run: async ({ args, values, negated }) => {
        if (values.limit === 'many') throw new UsageError('--limit takes a whole number');
        return { args, values, negated: [...negated] };
      },
    }),
  };
}

const COMMANDS: Record<string, Command<Flags, object>> = {
  serve: { synopsis: '', about: 'runs the server', flags: [], args: 0 },
  migrate: echo({ synopsis: '', about: 'migrates the store', flags: [], args: 0 }),
  'account create': echo({
    synopsis: '<email> [--plan P]',
    about: 'adds an account',
    flags: ['plan'],
    args: 1,
  }),
  'link show': echo({
    synopsis: '<short_code> [--domain HOST]',
    about: 'one link',
    details: '  --domain HOST     the domain whose code it is',
    flags: ['domain'],
    args: 1,
  }),
  'link list': echo({
    synopsis: '<email> [--group G] [--limit N]',
    about: "the account's links",
    details: '  --limit N         at most N links',
    flags: ['group', 'limit'],
    args: 1,
  }),
  'link edit': echo({
    synopsis: '<short_code> [--group G | --no-group]',
    about: 'changes a link',
    flags: ['group', 'no-group'],
    args: 1,
  }),
  'link import': echo({
    synopsis: '<email> <file> [--no-inspect]',
    about: 'brings links in',
    flags: ['inspect'],
    args: 2,
  }),
};

const table = commandTable(COMMANDS);
const LINK_LIST = 'usage: snip link list <email> [--group G] [--limit N] [--json]';

async function snip(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCommand(
    argv,
    {
      table,
      grammar: { flags: FLAGS, negated: ['no-group'] },
      open: async () => ({ deps: {}, close: async () => {} }),
    },
    { out: { write: (text: string) => (out += text) }, err: { write: (text: string) => (err += text) } },
  );
  return { code, out, err, json: () => JSON.parse(out) as Record<string, unknown> };
}

/** What parseArgs says in its own words, which the operator must never read. */
const RAW = [
  /Unknown option/,
  /argument missing/,
  /ambiguous/,
  /does not take an argument/,
  /ERR_PARSE_ARGS/,
];

function assertPlain(text: string) {
  for (const raw of RAW) assert.doesNotMatch(text, raw);
  assert.ok(!text.includes('usage: snip <command>'), `the whole usage was shown:\n${text}`);
}

describe('an unknown command', () => {
  for (const [typed, meant] of [
    [['lnk', 'list', 'a@b.c'], 'link list'],
    [['link', 'lst', 'a@b.c'], 'link list'],
    [['acount', 'create', 'a@b.c'], 'account create'],
    [['migrat'], 'migrate'],
  ] as const) {
    it(`suggests "snip ${meant}" for "snip ${typed.join(' ')}" with its one-line usage, exit 64`, async () => {
      const { code, err } = await snip(...typed);
      assert.equal(code, 64);
      const [message, usage, ...rest] = err.trimEnd().split('\n');
      assert.ok(message?.startsWith('snip: '), err);
      assert.ok(message?.includes(`"snip ${meant}"`), err);
      assert.ok(usage?.startsWith(`usage: snip ${meant}`), err);
      assert.deepEqual(rest, [], 'more than the one-line usage');
      assertPlain(err);
    });
  }

  it('puts the suggestion in the JSON error', async () => {
    const { code, json } = await snip('lnk', 'list', 'a@b.c', '--json');
    assert.equal(code, 64);
    assert.equal(typeof json().error, 'string');
    assert.equal(json().suggestion, 'snip link list');
  });

  it('shows the one-line usage of the suggested command, [--json] included', async () => {
    const { err } = await snip('link', 'lsit', 'a@b.c');
    assert.ok(err.includes(`\n${LINK_LIST}\n`), err);
  });

  it('names snip --help and no command when nothing is near, without a usage', async () => {
    const { code, err, json } = await snip('frobnicate', '--json');
    assert.equal(code, 64);
    assert.ok(err.includes('snip --help'), err);
    assert.ok(!err.includes('usage:'), err);
    assert.equal(json().suggestion, undefined);
  });

  it('suggests the group a mistyped group word is nearest, with its commands', async () => {
    const { code, err, json } = await snip('lnk', '--json');
    assert.equal(code, 64);
    assert.equal(json().suggestion, 'snip link');
    for (const name of ['link show', 'link list', 'link edit']) assert.ok(err.includes(`snip ${name}`), err);
    assert.ok(!err.includes('snip migrate'), err);
  });

  it('keeps answering a bare group word with the commands of the group', async () => {
    const { code, err } = await snip('link');
    assert.equal(code, 64);
    for (const name of ['link show', 'link list', 'link edit', 'link import']) {
      assert.ok(err.includes(`snip ${name}`), err);
    }
    assert.ok(!err.includes('snip account create'), err);
  });
});

describe('an unknown flag', () => {
  it('suggests --limit for --limt with the command’s one-line usage, exit 64', async () => {
    const { code, err } = await snip('link', 'list', 'a@b.c', '--limt', '5');
    assert.equal(code, 64);
    const [message, usage, ...rest] = err.trimEnd().split('\n');
    assert.ok(message?.includes('--limt') && message.includes('--limit'), err);
    assert.ok(message?.includes('snip link list'), err);
    assert.equal(usage, LINK_LIST);
    assert.deepEqual(rest, []);
    assertPlain(err);
  });

  it('writes the error and the suggestion as JSON with --json', async () => {
    const { code, json, err } = await snip('link', 'list', 'a@b.c', '--limt=5', '--json');
    assert.equal(code, 64);
    assert.equal(json().suggestion, '--limit');
    assert.match(String(json().error), /--limt/);
    assertPlain(`${json().error}\n${err}`);
  });

  it('refuses a flag of another command, naming it, without a far-fetched suggestion', async () => {
    const { code, err, json } = await snip('link', 'show', 'x', '--limit', '3', '--json');
    assert.equal(code, 64);
    assert.match(String(json().error), /--limit/);
    assert.equal(json().suggestion, undefined);
    assert.ok(err.includes('usage: snip link show <short_code> [--domain HOST] [--json]'), err);
    assert.ok(!err.includes('the domain whose code it is'), 'the details instead of one line');
  });

  it('suggests among the negated flags the command takes', async () => {
    assert.equal((await snip('link', 'edit', 'x', '--no-grop', '--json')).json().suggestion, '--no-group');
    const noInspect = await snip('link', 'import', 'a@b.c', 'f.csv', '--no-inspct', '--json');
    assert.equal(noInspect.json().suggestion, '--no-inspect');
  });

  it('suggests --help for --hlep with no command named', async () => {
    const { code, err } = await snip('--hlep');
    assert.equal(code, 64);
    assert.ok(err.includes('--help'), err);
    assertPlain(err);
  });

  it('refuses a negated string flag, naming it', async () => {
    const { code, err } = await snip('link', 'list', 'a@b.c', '--no-limit');
    assert.equal(code, 64);
    assert.ok(err.includes('--no-limit'), err);
    assertPlain(err);
  });

  it('says plainly that a string flag needs its value', async () => {
    for (const argv of [
      ['link', 'list', 'a@b.c', '--limit'],
      ['link', 'list', 'a@b.c', '--limit', '--group', 'g'],
    ]) {
      const { code, err } = await snip(...argv);
      assert.equal(code, 64);
      assert.ok(err.split('\n')[0]?.includes('--limit'), err);
      assert.ok(err.includes(`\n${LINK_LIST}\n`), err);
      assertPlain(err);
    }
  });

  it('answers in JSON when --json was taken for the missing value', async () => {
    const { code, json } = await snip('link', 'list', 'a@b.c', '--limit', '--json');
    assert.equal(code, 64);
    assert.match(String(json().error), /--limit/);
    assertPlain(String(json().error));
  });

  it('says plainly that a switch takes no value', async () => {
    const { code, err } = await snip('link', 'list', 'a@b.c', '--json=yes');
    assert.equal(code, 64);
    assert.ok(err.split('\n')[0]?.includes('--json'), err);
    assert.ok(err.includes(`\n${LINK_LIST}\n`), err);
    assertPlain(err);
  });
});

describe('a wrong number of arguments', () => {
  for (const argv of [
    ['link', 'list'],
    ['link', 'list', 'a@b.c', 'extra'],
  ]) {
    it(`names what "snip ${argv.join(' ')}" expects and shows its one-line usage, exit 64`, async () => {
      const { code, err } = await snip(...argv);
      assert.equal(code, 64);
      const [message, usage, ...rest] = err.trimEnd().split('\n');
      assert.ok(message?.includes('<email>'), err);
      assert.equal(usage, LINK_LIST);
      assert.deepEqual(rest, [], 'the details instead of one line');
    });
  }

  it('says a command takes none', async () => {
    const { code, err } = await snip('migrate', 'now');
    assert.equal(code, 64);
    const [message, ...rest] = err.trimEnd().split('\n');
    assert.ok(message?.includes('snip migrate'), err);
    assert.deepEqual(rest, ['usage: snip migrate [--json]']);
  });
});

describe('what still runs and helps as before', () => {
  it('runs well-formed words, negations included', async () => {
    const listed = await snip('link', 'list', 'a@b.c', '--limit', '5', '--json');
    assert.equal(listed.code, 0, listed.err);
    assert.deepEqual(listed.json().values, { limit: '5', json: true });
    const edited = await snip('link', 'edit', 'x', '--no-group', '--json');
    assert.deepEqual(edited.json().negated, ['no-group']);
    const imported = await snip('link', 'import', 'a@b.c', 'f.csv', '--no-inspect', '--json');
    assert.deepEqual(imported.json().values, { inspect: false, json: true });
  });

  it("follows a command's own usage error with its one-line usage", async () => {
    const { code, err } = await snip('link', 'list', 'a@b.c', '--limit', 'many');
    assert.equal(code, 64);
    assert.deepEqual(err.trimEnd().split('\n'), ['snip: --limit takes a whole number', LINK_LIST]);
  });

  it('prints the whole usage for snip --help and no words', async () => {
    for (const argv of [['--help'], ['-h'], []]) {
      const { code, out } = await snip(...argv);
      assert.equal(code, 0);
      assert.equal(out, `${table.globalUsage}\n`);
    }
  });

  it("prints a command's own usage for --help, details and all", async () => {
    const { code, out } = await snip('link', 'list', '--help');
    assert.equal(code, 0);
    assert.equal(out, `${LINK_LIST}\n\nThe account's links.\n  --limit N         at most N links\n`);
    assert.ok((await snip('serve', '--help')).out.startsWith('usage: snip serve\n\nRuns the server.'));
  });

  it("prints a group's commands for snip link --help", async () => {
    const { code, out } = await snip('link', '--help');
    assert.equal(code, 0);
    assert.equal(
      out,
      `usage:
  snip link show <short_code> [--domain HOST]
  snip link list <email> [--group G] [--limit N]
  snip link edit <short_code> [--group G | --no-group]
  snip link import <email> <file> [--no-inspect]

\`snip link <command> --help\` tells more.
`,
    );
  });
});

describe('edit distance', () => {
  it('counts inserts, deletes, changes and swapped neighbours', () => {
    assert.equal(editDistance('list', 'list'), 0);
    assert.equal(editDistance('lsit', 'list'), 1);
    assert.equal(editDistance('lnk list', 'link list'), 1);
    assert.equal(editDistance('kitten', 'sitting'), 3);
    assert.equal(editDistance('', 'key'), 3);
  });

  it('suggests only names near enough to be a slip', () => {
    assert.equal(nearest('limt', ['group', 'limit'])?.name, 'limit');
    assert.equal(nearest('x', ['key']), undefined);
    assert.equal(nearest('frobnicate', ['migrate', 'serve']), undefined);
  });
});
