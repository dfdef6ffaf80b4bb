import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Plan, Workspace } from '../../../src/core/entities.ts';
import { contactHref } from '../../../src/features/billing/billing-page.ts';
import { operatorContact } from '../../../src/features/billing/billing-service.ts';
import { workspaceAdmin } from '../../../src/features/workspaces/index.ts';
import { attribute, PageClient } from '../../fixtures/page-client.ts';
import { withoutTokens } from '../../fixtures/without-tokens.ts';
import { send, startTestApp, type TestApp } from '../../helper.ts';
import { savePlans } from './plans.ts';

/**
 * Billing without a payment provider (docs/api.md §17): upgrades are the operator's, so the page
 * names their contact (UPGRADE_URL, else a mailto of MAIL_FROM, else plain words), each plan has a
 * button to it, and no command is shown; nothing is sold, and POST /webhooks/stripe does not exist.
 */

const PASSWORD = 'correct horse battery';

describe('Settings → Billing without Stripe', () => {
  let t: TestApp;
  let olga: PageClient;
  let acme: Workspace;

  before(async () => {
    t = await startTestApp({ env: { UPGRADE_URL: 'https://example.com/upgrade?from=snip' } });
    await savePlans(t.store);
    await t.ops.createAccount('olga@example.com', 'free', PASSWORD);
    acme = await workspaceAdmin(t.store).create('acme', 'olga@example.com', 'free', 'Acme');
    olga = new PageClient(t.app);
    await olga.signIn('olga@example.com', PASSWORD);
  });

  after(() => t?.close());

  it("gives every other plan a button to the operator's contact, shows no command, and sells nothing", async () => {
    const page = await olga.open('/w/acme/billing');
    assert.equal(page.statusCode, 200);
    assert.equal(attribute(page.body, 'data-plan'), 'free');
    assert.match(page.body, /<a href="https:\/\/example.com\/upgrade\?from=snip" data-contact="url"/);
    for (const plan of ['starter', 'pro', 'team']) {
      const card = page.body.slice(page.body.indexOf(`data-plan-option="${plan}"`));
      assert.match(
        card.slice(0, card.indexOf('</section>')),
        /<a class="button" href="https:\/\/example.com\/upgrade\?from=snip" data-action="contact" data-contact="url"/,
        plan,
      );
    }
    assert.doesNotMatch(withoutTokens(page.body), /npx|snip workspace|data-command/);
    assert.doesNotMatch(page.body, /data-action="(checkout|portal)"/);
    assert.match(String(page.headers['content-security-policy']), /form-action 'self';/);
  });

  it('mails the operator without UPGRADE_URL, the plan and the workspace in the subject', () => {
    const contact = operatorContact(undefined, 'Snip <ops@example.com>');
    const plan = { name: 'pro' } as Plan;
    assert.equal(
      contactHref(contact, plan, acme),
      'mailto:ops@example.com?subject=Plan%20pro%20for%20the%20workspace%20Acme%20(acme)',
    );
    assert.equal(contactHref(operatorContact(undefined, undefined), plan, acme), undefined);
  });

  it('sells nothing and has no Stripe webhook', async () => {
    const refused = await olga.post('/w/acme/billing/checkout', { plan: 'pro' });
    assert.equal(refused.statusCode, 404);
    assert.equal(attribute(refused.body, 'data-error'), 'no-payments');
    const hook = await send(t.app, {
      method: 'POST',
      url: '/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      payload: '{}',
    });
    assert.deepEqual([hook.status, hook.body.error], [404, 'stripe-not-configured']);
    assert.equal((await t.store.findWorkspaceById(acme.id))?.plan.name, 'free');
  });

  it('says a workspace over its quota keeps its links and shows them all in the usage', async () => {
    const links = [1, 2, 3, 4].map((i) => {
      const url = `https://example.com/held/${i}`;
      const urlHash = createHash('sha256').update(url).digest('hex');
      return {
        code: `held00${i}`,
        domainId: 0,
        workspaceId: acme.id,
        groupId: null,
        longUrl: url,
        normalizedUrl: url,
        urlHash,
        title: '',
      };
    });
    await t.store.insertLinksBulk(links);
    const page = await olga.open('/w/acme/billing');
    assert.match(page.body, /data-usage="links">4 /);
    assert.match(page.body, /data-notice="over-quota"/);
  });

  it('names the mail address of MAIL_FROM without UPGRADE_URL, else asks in plain words', () => {
    assert.deepEqual(operatorContact(undefined, 'Snip <snip@example.com>'), {
      kind: 'mail',
      href: 'mailto:snip@example.com',
      address: 'snip@example.com',
    });
    assert.equal(operatorContact(undefined, 'snip@example.com').kind, 'mail');
    assert.equal(operatorContact('https://example.com/up', 'snip@example.com').kind, 'url');
    assert.deepEqual(operatorContact(undefined, undefined), { kind: 'none' });
    assert.deepEqual(operatorContact(undefined, 'not an address'), { kind: 'none' });
  });
});
