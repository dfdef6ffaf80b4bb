import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Plan } from '../../../src/core/entities.ts';
import {
  actionFor,
  operatorContact,
  priceText,
  publicPlans,
  type Viewer,
} from '../../../src/features/billing/pricing-plans.ts';
import { workspaceAdmin } from '../../../src/features/workspaces/index.ts';
import { membersService } from '../../../src/features/workspaces/members.ts';
import { PageClient } from '../../fixtures/page-client.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/**
 * GET /pricing (docs/api.md §17): the public plans, free first then by price, each with its price,
 * links, hourly requests and API access, and the call to action of whoever looks — a visitor, an
 * owner on a free plan, a paying owner, a member who is no owner; the operator's contact when no
 * payment provider is set, each owner's button asking them; no page at all, and no link to it,
 * while no plan is listed (docs/api.md §22).
 */

const PASSWORD = 'correct horse battery';

interface Card {
  plan: string;
  current: boolean;
  cta: string | undefined;
  href: string | undefined;
  price: string | undefined;
}

/** The plan cards of a page, in order, with what each offers. */
function cards(body: string): Card[] {
  return body
    .split('<article ')
    .slice(1)
    .map((part) => {
      const card = part.slice(0, part.indexOf('</article>'));
      const cta = /<(?:a|span) [^>]*data-cta="([^"]+)"/.exec(card);
      return {
        plan: /data-plan="([^"]+)"/.exec(card)?.[1] ?? '',
        current: card.includes('data-current="true"'),
        cta: cta?.[1],
        href: /href="([^"]+)"[^>]*data-cta=/.exec(card)?.[1]?.replaceAll('&#38;', '&'),
        price: /data-fact="price"><strong>([^<]+)<\/strong>/.exec(card)?.[1],
      };
    });
}

const plan = (name: string, id: number, price: Plan['price'], listed = true): Plan => ({
  id,
  name,
  apiAccess: false,
  urlQuota: 1,
  rateLimitPerHour: 1,
  price,
  public: listed,
});

describe('what /pricing decides', () => {
  it('lists only public plans, free first, then the cheapest', () => {
    const plans = [
      plan('team', 1, { amount: 2900, currency: 'EUR' }),
      plan('hidden', 2, { amount: 100, currency: 'EUR' }, false),
      plan('pro', 3, { amount: 900, currency: 'EUR' }),
      plan('free', 4, null),
    ];
    assert.deepEqual(
      publicPlans(plans).map((p) => p.name),
      ['free', 'pro', 'team'],
    );
  });

  it('formats minor units by the currency: cents, none for yen, three decimals for dinars', () => {
    assert.equal(priceText({ amount: 900, currency: 'EUR' }), '€9.00');
    assert.equal(priceText({ amount: 1999, currency: 'USD' }), '$19.99');
    assert.equal(priceText({ amount: 500, currency: 'JPY' }), '¥500');
    assert.match(priceText({ amount: 1500, currency: 'KWD' }), /^KWD\s1\.500$/);
    assert.equal(priceText({ amount: 5, currency: 'E1' }), '5 E1', 'a code Intl cannot format, as stored');
  });

  it('offers each viewer what they may do', () => {
    const free = plan('free', 1, null);
    const pro = plan('pro', 2, { amount: 900, currency: 'EUR' });
    const as = (role: 'owner' | 'admin', on: Plan): Viewer => ({
      kind: 'member',
      slug: 'acme',
      name: 'Acme',
      role,
      plan: on,
    });
    assert.deepEqual(actionFor({ kind: 'visitor', signupOpen: true }, pro), {
      kind: 'signup',
      href: '/signup',
    });
    assert.deepEqual(actionFor({ kind: 'visitor', signupOpen: false }, pro), {
      kind: 'signin',
      href: '/login',
    });
    assert.deepEqual(actionFor(as('owner', free), pro), {
      kind: 'upgrade',
      href: '/w/acme/billing?plan=pro',
    });
    assert.deepEqual(actionFor(as('owner', free), free), { kind: 'current' });
    assert.deepEqual(actionFor(as('owner', pro), free), { kind: 'change', href: '/w/acme/billing' });
    assert.deepEqual(actionFor(as('admin', free), pro), { kind: 'ask-owner' });
  });

  it('names the operator: UPGRADE_URL, else the address of MAIL_FROM, else no one', () => {
    assert.deepEqual(
      operatorContact('https://example.com/plans', 'snip@example.com')?.href,
      'https://example.com/plans',
    );
    const mail = operatorContact(undefined, 'Snip <billing@example.com>');
    assert.deepEqual(mail, { href: 'mailto:billing@example.com', label: 'billing@example.com', mail: true });
    // Without a payment provider an owner's button asks the operator, naming the plan and workspace.
    const owner: Viewer = {
      kind: 'member',
      slug: 'acme',
      name: 'Acme',
      role: 'owner',
      plan: plan('free', 1, null),
    };
    assert.deepEqual(mail && actionFor(owner, plan('pro', 2, null), mail), {
      kind: 'contact',
      href: 'mailto:billing@example.com?subject=Plan%20pro%20for%20the%20workspace%20Acme%20(acme)',
    });
    assert.equal(operatorContact(undefined, undefined), undefined);
  });
});

describe('GET /pricing', () => {
  let t: TestApp;
  const slugs: Record<string, string> = {};

  before(async () => {
    t = await startTestApp({ env: { UPGRADE_URL: 'https://example.com/upgrade' } });
    await t.ops.savePlan('free', { public: true, description: 'A hundred links to start with.' });
    const pro = { apiAccess: true, urlQuota: 10_000, price: { amount: 900, currency: 'EUR' } };
    await t.ops.savePlan('pro', { ...pro, public: true, description: 'Ten thousand links & the API.' });
    await t.ops.savePlan('team', {
      urlQuota: 50_000,
      price: { amount: 2900, currency: 'EUR' },
      public: true,
    });
    await t.ops.savePlan('secret', { price: { amount: 100, currency: 'EUR' } });
    for (const [who, on] of [
      ['fran', 'free'],
      ['paula', 'pro'],
      ['mia', 'free'],
    ] as const) {
      const { account } = await t.ops.createAccount(`${who}@example.com`, on, PASSWORD);
      slugs[who] = account.workspace.slug;
    }
    const acme = await workspaceAdmin(t.store).create('acme', 'paula@example.com', 'pro', 'Acme');
    await membersService(t.store).add(acme, 'mia@example.com', 'admin');
  });
  after(() => t?.close());

  async function pricingAs(who?: string, url = '/pricing') {
    const client = new PageClient(t.app);
    if (who) assert.equal((await client.signIn(`${who}@example.com`, PASSWORD)).statusCode, 303);
    const response = await client.get(url);
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^text\/html/);
    return response.body;
  }

  it('shows a visitor the public plans in order, each with its facts and Sign up', async () => {
    const body = await pricingAs();
    const shown = cards(body);
    assert.deepEqual(
      shown.map((card) => [card.plan, card.price, card.cta, card.href, card.current]),
      [
        ['free', 'Free', 'signup', '/signup', false],
        ['pro', '€9.00', 'signup', '/signup', false],
        ['team', '€29.00', 'signup', '/signup', false],
      ],
    );
    assert.ok(!body.includes('data-plan="secret"'), 'an unlisted plan is not shown');
    assert.ok(!body.includes('data-plan="tester"'));
    assert.match(body, /data-fact="url-quota">10,000</);
    assert.match(body, /data-fact="api-access">Yes</);
    assert.ok(body.includes('Ten thousand links &#38; the API.'), 'the description, escaped');
  });

  it('names the operator to ask when no payment provider is set', async () => {
    const body = await pricingAs();
    assert.match(body, /data-part="contact"[^<]*<a href="https:\/\/example.com\/upgrade"/);
  });

  it("gives an owner a button to the operator's contact on every other plan", async () => {
    const upgrade = 'https://example.com/upgrade';
    assert.deepEqual(
      cards(await pricingAs('fran')).map((card) => [card.plan, card.cta, card.href, card.current]),
      [
        ['free', 'current', undefined, true],
        ['pro', 'contact', upgrade, false],
        ['team', 'contact', upgrade, false],
      ],
    );
    assert.deepEqual(
      cards(await pricingAs('paula')).map((card) => [card.plan, card.cta, card.href, card.current]),
      [
        ['free', 'contact', upgrade, false],
        ['pro', 'current', undefined, true],
        ['team', 'contact', upgrade, false],
      ],
    );
  });

  it('links to /pricing from the header, the footer and the landing page while a plan is public', async () => {
    const client = new PageClient(t.app);
    const landing = await client.get('/');
    assert.equal(landing.statusCode, 200);
    assert.equal(landing.body.match(/href="\/pricing"/g)?.length, 3);
  });

  it('answers for the workspace named, and tells a member who is no owner to ask one', async () => {
    const shown = cards(await pricingAs('mia', '/pricing?workspace=acme'));
    assert.deepEqual(
      shown.map((card) => [card.plan, card.cta, card.href, card.current]),
      [
        ['free', 'ask-owner', undefined, false],
        ['pro', 'current', undefined, true],
        ['team', 'ask-owner', undefined, false],
      ],
    );
    // Not a workspace of hers: her own is shown instead.
    const own = cards(await pricingAs('mia', '/pricing?workspace=nowhere'));
    assert.deepEqual(
      own.map((card) => [card.plan, card.cta]),
      [
        ['free', 'current'],
        ['pro', 'contact'],
        ['team', 'contact'],
      ],
    );
  });

  it('is the not-found page, linked from nowhere, while no plan is public', async () => {
    for (const name of ['free', 'pro', 'team']) await t.ops.savePlan(name, { public: false });
    const client = new PageClient(t.app);
    const unknown = await client.get('/no-such-page-here');
    const pricing = await client.get('/pricing');
    assert.equal(pricing.statusCode, 404);
    assert.equal(pricing.body, unknown.body);
    const fran = new PageClient(t.app);
    assert.equal((await fran.signIn('fran@example.com', PASSWORD)).statusCode, 303);
    for (const [who, path] of [
      [client, '/'],
      [client, '/tester'],
      [client, '/login'],
      [fran, `/w/${slugs.fran}/settings`],
      [fran, `/w/${slugs.fran}/billing`],
      [fran, `/w/${slugs.fran}`],
    ] as const) {
      const page = await who.get(path);
      assert.equal(page.statusCode, 200, path);
      assert.doesNotMatch(page.body, /href="\/pricing/, path);
    }
  });
});
