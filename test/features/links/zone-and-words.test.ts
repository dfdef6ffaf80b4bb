import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { OWN_URL_TEXT, URL_FAULT_TEXT } from '../../../src/web/link-refusal-text.ts';
import { assertProblem, callApi } from '../../fixtures/api-client.ts';
import { PageClient } from '../../fixtures/page-client.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/**
 * The link pages in the workspace's time zone and in one voice (docs/api.md §18): Settings sets the
 * zone; the expiry is entered and shown in it and its field names it; created times are shown in
 * it. A URL typed without a scheme gets https:// on the pages (the API stays strict); each cause of
 * a refused URL has its own sentence, and no page shows a code, a field name or an HTTP status.
 */

const PASSWORD = 'correct horse battery';

/** A field's error line next to it, and its data-error. */
const fieldError = (body: string, form: string, field: string) => {
  const line = new RegExp(
    `<p class="field-error" id="${form}-${field}-error"[^>]*data-error="([^"]+)">([^<]*)</p>`,
  );
  const match = line.exec(body);
  return match ? { code: match[1] ?? '', text: match[2] ?? '' } : undefined;
};

/** What a person reads of the page: its text, markup and attributes left out. */
const wordsOf = (body: string) =>
  body
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z#0-9]+;/gi, ' ');

function assertPlainWords(body: string): void {
  const words = wordsOf(body);
  assert.doesNotMatch(words, /HTTP \d{3}|\b30\d\b|\b31\d\b|expires_at|\burl\b/, words.slice(0, 400));
}

describe('the link pages in the workspace time zone, and their words', () => {
  let t: TestApp;
  let client: PageClient;
  let workspaceId: number;

  before(async () => {
    t = await startTestApp();
    const { account } = await t.ops.createAccount('ada@example.com', 'tester', PASSWORD);
    workspaceId = account.workspace.id;
    client = new PageClient(t.app);
    assert.equal((await client.signIn('ada@example.com', PASSWORD)).statusCode, 303);
  });
  after(() => t.close());

  const create = async (fields: Record<string, string>): Promise<LightMyRequestResponse> => {
    await client.open(client.at(''));
    return client.post(client.at('/links'), fields);
  };

  it('sets the time zone in Settings with the name, and refuses an unknown one changing nothing', async () => {
    const page = await client.open(client.at('/settings'));
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<select name="timezone"[^>]*>[\s\S]*<option value="UTC" selected>UTC<\/option>/);
    assert.match(page.body, /<option value="Pacific\/Auckland">Pacific\/Auckland<\/option>/);
    const name = (await t.store.findWorkspaceById(workspaceId))?.name ?? '';
    const refused = await client.post(client.at('/settings'), { name: 'Renamed', timezone: 'Mars/Olympus' });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.body, /data-error="300"/);
    const kept = await t.store.findWorkspaceById(workspaceId);
    assert.deepEqual([kept?.name, kept?.timezone], [name, 'UTC'], 'nothing changed');
    const saved = await client.post(client.at('/settings'), { name, timezone: 'Europe/Paris' });
    assert.equal(saved.statusCode, 303);
    assert.match(String(saved.headers.location), /done=saved/);
    assert.equal((await t.store.findWorkspaceById(workspaceId))?.timezone, 'Europe/Paris');
    const shown = await client.open(client.at('/settings'));
    assert.match(shown.body, /<option value="Europe\/Paris" selected>/);
  });

  it('enters the expiry in the zone, stores the instant, and shows it back in the zone', async () => {
    await t.store.setWorkspaceTimezone(workspaceId, 'Europe/Paris');
    const form = await client.open(client.at(''));
    assert.match(form.body, /Expires \(Europe\/Paris\)\s*<input type="datetime-local" name="expires_at"/);
    const made = await create({
      url: 'https://example.com/summer',
      slug: 'summer',
      expires_at: '2099-06-30T18:30',
    });
    assert.equal(made.statusCode, 303, made.body);
    const summer = await t.store.findLinkByCode(0, 'summer');
    assert.equal(summer?.expiresAt?.toISOString(), '2099-06-30T16:30:00.000Z', 'CEST is UTC+2');
    const winter = await create({
      url: 'https://example.com/winter',
      slug: 'winter',
      expires_at: '2099-01-15T09:00',
    });
    assert.equal(winter.statusCode, 303, winter.body);
    assert.equal(
      (await t.store.findLinkByCode(0, 'winter'))?.expiresAt?.toISOString(),
      '2099-01-15T08:00:00.000Z',
    );

    const page = await client.open(client.at('/links/summer?edit'));
    assert.match(
      page.body,
      /Expires \(Europe\/Paris\)\s*<input type="datetime-local" name="expires_at" value="2099-06-30T18:30">/,
    );
    assert.match(page.body, /2099-06-30 18:30 Europe\/Paris/);
    const created = summer?.createdAt;
    assert.ok(created);
    const zoned = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Europe/Paris',
      dateStyle: 'short',
      timeStyle: 'short',
    }).format(created);
    const view = await client.open(client.at('/links/summer'));
    assert.ok(view.body.includes(`title="${zoned} Europe/Paris"`), 'created, in the zone');
    const list = await client.open(client.at(''));
    assert.ok(list.body.includes(`title="${zoned} Europe/Paris"`), 'the list shows it in the zone');
    assert.match(list.body, /title="Expires 2099-06-30 18:30 Europe\/Paris"/);

    // Sent back as shown, the expiry is unchanged; a new time is read in the zone.
    const same = await client.post(client.at('/links/summer'), {
      url: 'https://example.com/summer',
      title: summer?.title ?? '',
      group: '',
      expires_at: '2099-06-30T18:30',
    });
    assert.match(String(same.headers.location), /done=unchanged/);
    const moved = await client.post(client.at('/links/summer'), {
      url: 'https://example.com/summer',
      title: summer?.title ?? '',
      group: '',
      expires_at: '2099-12-24T20:00',
    });
    assert.equal(moved.statusCode, 303, moved.body);
    assert.equal(
      (await t.store.findLinkByCode(0, 'summer'))?.expiresAt?.toISOString(),
      '2099-12-24T19:00:00.000Z',
    );
    // Another zone shows the same instant in its own time.
    await t.store.setWorkspaceTimezone(workspaceId, 'America/New_York');
    const there = await client.open(client.at('/links/summer?edit'));
    assert.match(
      there.body,
      /Expires \(America\/New_York\)\s*<input type="datetime-local" name="expires_at" value="2099-12-24T14:00">/,
    );
    await t.store.setWorkspaceTimezone(workspaceId, 'UTC');
    const utc = await client.open(client.at(''));
    assert.match(utc.body, /Expires \(UTC\)/);
  });

  it('prefixes https:// to a URL typed without a scheme on the create form; the API refuses it', async () => {
    const made = await create({ url: 'example.com/no-scheme', slug: 'noscheme' });
    assert.equal(made.statusCode, 303, made.body);
    assert.equal((await t.store.findLinkByCode(0, 'noscheme'))?.longUrl, 'https://example.com/no-scheme');
    const key = t.apiKey;
    const api = await callApi(t.app, 'POST', '/links', { key, body: { url: 'example.com/by-api' } });
    assertProblem(api, 400, '300');
    assert.ok(String(api.body.detail).includes('scheme'), 'the API says the cause');
    for (const typed of ['localhost/x', 'foo', 'javascript:alert(1)']) {
      const refused = await create({ url: typed });
      assert.equal(refused.statusCode, 400, typed);
      assert.ok(fieldError(refused.body, 'create', 'url'), typed);
    }
  });

  it('prefixes https:// in the edit panel too', async () => {
    const made = await create({ url: 'https://example.com/edit-me', slug: 'editme' });
    assert.equal(made.statusCode, 303);
    await client.open(client.at('/links/editme?edit'));
    const saved = await client.post(client.at('/links/editme'), {
      url: 'example.org/edited',
      title: '',
      group: '',
    });
    assert.equal(saved.statusCode, 303, saved.body);
    assert.equal((await t.store.findLinkByCode(0, 'editme'))?.longUrl, 'https://example.org/edited');
  });

  it('says each refusal cause in its own sentence, next to the field, with no code or field name', async () => {
    await create({ url: 'https://example.com/taken', slug: 'taken1' });
    const causes: Array<[string, Record<string, string>, string]> = [
      ['no scheme', { url: 'localhost' }, URL_FAULT_TEXT['no-scheme']],
      ['another scheme', { url: 'ftp://example.com/file' }, URL_FAULT_TEXT.scheme],
      ['credentials', { url: 'https://user:secret@example.com/' }, URL_FAULT_TEXT.credentials],
      ['too long', { url: `https://example.com/${'a'.repeat(2100)}` }, URL_FAULT_TEXT['too-long']],
      ['this shortener', { url: 'https://sn.ip/abc1234' }, OWN_URL_TEXT],
    ];
    const sentences = new Set<string>();
    for (const [cause, fields, sentence] of causes) {
      const refused = await create(fields);
      assert.ok(refused.statusCode >= 400 && refused.statusCode < 500, cause);
      const said = fieldError(refused.body, 'create', 'url');
      assert.equal(said?.text, sentence, cause);
      sentences.add(sentence);
      assertPlainWords(refused.body);
    }
    const duplicate = await create({ url: 'https://example.com/taken' });
    assert.equal(duplicate.statusCode, 409);
    const again = fieldError(duplicate.body, 'create', 'url');
    assert.ok(again && !sentences.has(again.text), 'already shortened has its own sentence');
    sentences.add(again.text);
    const past = await create({ url: 'https://example.com/past', expires_at: '2001-01-01T00:00' });
    assert.equal(past.statusCode, 400);
    assert.match(wordsOf(past.body), /expiry date is in the past/);
    assertPlainWords(past.body);
    assert.equal(sentences.size, causes.length + 1);
  });

  it('prefixes https:// on bulk rows and says a refused row by its cause', async () => {
    await client.open(client.at('/bulk'));
    const answer = await t.app.inject({
      method: 'POST',
      url: client.at('/bulk'),
      headers: { cookie: client.cookieHeader, 'content-type': 'application/json' },
      payload: JSON.stringify({
        _csrf: client.csrf,
        items: [{ url: 'example.com/bulk-row' }, { url: 'ftp://example.com/row' }, { url: 'localhost' }],
      }),
    });
    assert.equal(answer.statusCode, 200, answer.body);
    const items = answer.json().items as Array<{
      link?: { long_url: string };
      error?: { code: string; detail: string };
    }>;
    assert.equal(items[0]?.link?.long_url, 'https://example.com/bulk-row');
    assert.deepEqual(
      items.slice(1).map((item) => [item.error?.code, item.error?.detail]),
      [
        ['300', URL_FAULT_TEXT.scheme],
        ['300', URL_FAULT_TEXT['no-scheme']],
      ],
    );
  });
});
