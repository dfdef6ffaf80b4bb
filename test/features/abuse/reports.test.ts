import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem } from '../../fixtures/api-client.ts';
import { clearOfWindowEnd, HOUR_MS } from '../../fixtures/clear-of-window.ts';
import { PageClient } from '../../fixtures/page-client.ts';
import { type SmtpInbox, startSmtpInbox } from '../../fixtures/smtp-inbox.ts';
import { send } from '../../helper.ts';
import { abuseHarness } from './abuse-harness.ts';

/**
 * Reports (docs/api.md §13): POST /api/v1/reports with no key and the public /report form; 5 per
 * address an hour; a short URL of this Snip only; each mailed to REPORT_EMAIL; resolved by the
 * operator's command with each action, once.
 */

let inbox: SmtpInbox;
before(async () => {
  inbox = await startSmtpInbox();
});
after(() => inbox?.close());

const { state, ok, refused, create, eventually } = abuseHarness({
  env: () => ({
    SMTP_URL: inbox.url,
    MAIL_FROM: 'snip@sn.ip',
    REPORT_EMAIL: 'abuse@sn.ip',
    EMAIL_VERIFICATION: 'off',
  }),
});

let addressCount = 0;
/** Each test reports from its own address, so the hourly limit of one never spends another's. */
const freshAddress = () => `10.9.${Math.floor(++addressCount / 250)}.${addressCount % 250}`;

const report = (body: unknown, address: string) =>
  send(state.app, {
    method: 'POST',
    url: '/api/v1/reports',
    headers: { 'content-type': 'application/json' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
    remoteAddress: address,
  });

async function newLink(path: string): Promise<string> {
  const made = await create(state.target.url(path));
  assert.equal(made.status, 201, JSON.stringify(made.body));
  return String(made.body.short_url);
}

describe('reports', () => {
  it('takes a report without a key, mails it, and lists it open', async () => {
    const url = await newLink('/title');
    const answer = await report(
      { url, reason: 'phishing', comment: '<script>alert(1)</script>' },
      freshAddress(),
    );
    assert.equal(answer.status, 201);
    assert.equal(typeof answer.body.id, 'number');
    const mail = await inbox.next({ to: 'abuse@sn.ip' });
    assert.match(mail.text, /phishing/);
    assert.doesNotMatch(mail.html, /<script>/);
    const open = (await ok('report', 'list', '--open')).items as Array<{ id: number; status: string }>;
    assert.ok(open.some((item) => item.id === answer.body.id && item.status === 'open'));
  });

  it('refuses what is not a report of a link of this Snip', async () => {
    const url = await newLink('/og-title');
    const address = freshAddress();
    assertProblem(
      await report({ url: 'https://elsewhere.example/abcdefg', reason: 'spam' }, address),
      404,
      '314',
    );
    assertProblem(await report({ url: 'https://sn.ip/zzzzzzz', reason: 'spam' }, address), 404, '314');
    assertProblem(await report({ url, reason: 'boredom' }, address), 400, '300');
    assertProblem(await report({ url, reason: 'spam', comment: 'x'.repeat(10_240) }, address), 400, '300');
    assertProblem(await report({ reason: 'spam' }, address), 400, '300');
    assertProblem(await report({ url, reason: 'spam', email: 42 }, address), 400, '300');
    assertProblem(await report('{"url":', address), 400, '300');
  });

  it('answers 429 after 5 reports from one address in an hour', async () => {
    const url = await newLink('/windows-1251');
    const address = freshAddress();
    await clearOfWindowEnd(HOUR_MS);
    for (let i = 0; i < 5; i++) assert.equal((await report({ url, reason: 'spam' }, address)).status, 201);
    const sixth = await report({ url, reason: 'spam' }, address);
    assertProblem(sixth, 429, '429');
    assert.ok(Number(sixth.headers['retry-after']) > 0);
    assert.equal((await report({ url, reason: 'spam' }, freshAddress())).status, 201);
  });

  it('takes the public form, escaping what it shows back', async () => {
    const url = await newLink('/shift-jis');
    const client = new PageClient(state.app, freshAddress());
    const form = await client.open('/report');
    assert.equal(form.statusCode, 200);
    const wrong = await client.post('/report', {
      url: 'https://sn.ip/zzzzzzz',
      reason: 'spam',
      comment: '<b>x</b>',
    });
    assert.equal(wrong.statusCode, 404);
    assert.match(wrong.body, /data-error="314"/);
    assert.match(wrong.body, /&#60;b&#62;x&#60;\/b&#62;/);
    const made = await client.post('/report', { url, reason: 'malware', comment: 'drive-by download' });
    assert.equal(made.statusCode, 303);
    assert.match(String(made.headers.location), /^\/report\?made=\d+$/);
    const forged = await send(state.app, {
      method: 'POST',
      url: '/report',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `url=${encodeURIComponent(url)}&reason=spam`,
    });
    assert.equal(forged.status, 403);
  });

  it('resolves reports by disabling, suspending, blocking or dismissing, each once', async () => {
    const made = async (path: string) => {
      const url = await newLink(path);
      const answer = await report({ url, reason: 'phishing' }, freshAddress());
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return { id: String(answer.body.id), code: new URL(url).pathname.slice(1) };
    };
    const toDisable = await made('/no-content-type');
    const resolved = await ok('report', 'resolve', toDisable.id, '--action', 'disable');
    assert.equal(resolved.status, 'resolved');
    assert.equal(resolved.resolution, 'disable');
    await eventually(toDisable.code, 410);
    const again = await ok('report', 'resolve', toDisable.id, '--action', 'dismiss');
    assert.equal(again.resolution, 'disable', 'a resolved report stays as it was');
    const toDismiss = await made('/behind-cloudflare');
    assert.equal((await ok('report', 'resolve', toDismiss.id, '--action', 'dismiss')).resolution, 'dismiss');
    await eventually(toDismiss.code, 302);
    const toBlock = await made('/json');
    await ok('report', 'resolve', toBlock.id, '--action', 'block');
    await eventually(toBlock.code, 410);
    await ok('blocklist', 'remove', '127.0.0.1');
    await eventually(toBlock.code, 302);
    const toSuspend = await made('/xss-title');
    await ok('report', 'resolve', toSuspend.id, '--action', 'suspend');
    await eventually(toSuspend.code, 410);
    await ok('workspace', 'resume', state.slug);
    await eventually(toSuspend.code, 302);
    await refused('action-invalid', 'report', 'resolve', toSuspend.id, '--action', 'explode');
    await refused('no-such-report', 'report', 'resolve', '99999', '--action', 'dismiss');
  });
});
