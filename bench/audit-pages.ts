import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { openStore } from '../src/adapters/open-store.ts';
import { hashPassword } from '../src/core/password.ts';
import { accountOperations } from '../src/features/workspaces/cli/account-operations.ts';
import { killAll, startSnip } from './processes.ts';
import { codeOf, prepareStore, seedLinks } from './seed.ts';
import { sessionCookie } from './sign-in.ts';

/**
 * `npm run audit:pages` (not a test): Lighthouse, from npm, against Debian's Chromium, on every page
 * of a Snip started here on a throwaway SQLite store — the pages signed in with a real session. Prints
 * the four category scores of each page; the goal is 100 in each of the four (the 404 page's best
 * practices and SEO aside, which its status itself scores down: the status is the point).
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PASSWORD = 'correct horse battery';
const OPERATOR = 'operator@bench.example';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const GOAL = 100;

/** 200 links for one account, none for another; both can sign in. */
async function seed(databaseUrl: string): Promise<void> {
  const prepared = await prepareStore(databaseUrl, 0);
  await seedLinks(databaseUrl, prepared.workspaceId, 0, 200);
  const store = await openStore(databaseUrl, { prepare: false });
  try {
    await store.setPasswordHash(prepared.workspaceId, await hashPassword(PASSWORD));
    // A link tracking conversions with an A/B test: its stats page shows the funnel and the Variants card.
    const variants = [
      { url: 'https://example.com/variant/a', weight: 60 },
      { url: 'https://example.com/variant/b', weight: 40 },
    ];
    await store.updateLink(prepared.workspaceId, 0, codeOf(1), {
      guards: { trackConversions: true, test: { variants, endsAt: null, startedAt: new Date() } },
    });
    const ops = accountOperations(store);
    await ops.createAccount('empty@bench.example', 'bench', PASSWORD);
    await ops.createAccount(OPERATOR, 'bench', PASSWORD);
    await store.setUserOperator((await store.findUserByEmail(OPERATOR))?.id ?? 0, true);
    // A public plan: /pricing, and the links to it, exist only while one does (docs/api.md §22).
    await ops.savePlan('team', {
      public: true,
      price: { amount: 900, currency: 'EUR' },
      description: 'Ten thousand links and the API.',
      urlQuota: 10_000,
      apiAccess: true,
    });
  } finally {
    await store.close();
  }
}

/**
 * The address a signed-in person's page lives at: /dashboard… leads on to the workspace's own
 * (/w/<slug>…, docs/api.md §11) with a 303, which is audited itself rather than the redirect.
 */
async function workspaceAddress(url: string, cookie: string | undefined): Promise<string> {
  if (!cookie) return url;
  const answer = await fetch(url, { headers: { cookie }, redirect: 'manual' });
  const location = answer.headers.get('location');
  return answer.status === 303 && location && !location.startsWith('/login')
    ? new URL(location, url).href
    : url;
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'snip-audit-'));
  const databaseUrl = `sqlite:${join(dir, 'snip.db')}`;
  await seed(databaseUrl);
  const snip = await startSnip(databaseUrl, '/healthz', 200);
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
    ],
  });
  try {
    const busy = await sessionCookie(snip.url, 'seed@bench.example', PASSWORD);
    const empty = await sessionCookie(snip.url, 'empty@bench.example', PASSWORD);
    const operator = await sessionCookie(snip.url, OPERATOR, PASSWORD);
    const pages: Array<[string, string, string | undefined]> = [
      ['landing', '/', undefined],
      ['tester', '/tester', undefined],
      ['sign-up', '/signup', undefined],
      ['sign-in', '/login', undefined],
      ['dashboard, empty', '/dashboard', empty],
      ['dashboard, 200 links', '/dashboard', busy],
      ['one link', `/dashboard/links/${codeOf(0)}`, busy],
      ['one link, editing', `/dashboard/links/${codeOf(0)}?edit`, busy],
      ['stats', '/dashboard/stats', busy],
      ['stats of a link', `/dashboard/links/${codeOf(0)}/stats`, busy],
      ['stats, funnel and variants', `/dashboard/links/${codeOf(1)}/stats`, busy],
      ['stats, filtered and compared', '/dashboard/stats?country=DE&source=qr&compare=previous', busy],
      ['members', '/dashboard/members', busy],
      ['account', '/account', busy],
      ['account, mail', '/account/mail', busy],
      ['console', '/admin', operator],
      ['console, workspaces', '/admin/workspaces', operator],
      ['console, reports', '/admin/reports', operator],
      ['pricing', '/pricing', undefined],
      ['404', '/Zzzzzzz', undefined],
    ];
    console.log(`Lighthouse on ${CHROMIUM}; goal ${GOAL} in each category\n`);
    console.log(['page'.padEnd(30), ...CATEGORIES.map((c) => c.padStart(15))].join(''));
    let missed = 0;
    // The session rides in the browser's own cookie jar (a Cookie header Lighthouse adds is not
    // sent by Chromium), which Lighthouse is told to keep rather than clear before each page.
    const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    const jar = cdp.contexts()[0];
    if (!jar) throw new Error('the audited Chromium has no default context');
    for (const [name, path, cookie] of pages) {
      await jar.clearCookies();
      if (cookie) {
        const at = cookie.indexOf('=');
        await jar.addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: snip.url }]);
      }
      const address = await workspaceAddress(`${snip.url}${path}`, cookie);
      const result = await lighthouse(address, {
        disableStorageReset: true,
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
        // The 404 page is audited like the others: its status is the point, not a failed load.
        ignoreStatusCode: true,
      });
      // A signed-in page that ended on the sign-in page (its session not carried, the sign-in page
      // scored in its place) is a miss, whatever its scores.
      const landed = result?.lhr.finalDisplayedUrl ?? '';
      if (path !== '/login' && new URL(landed || snip.url).pathname === '/login') {
        missed++;
        console.log(`${name.padEnd(30)} MISSED: audited ${landed || 'nothing'}, not ${path}`);
        continue;
      }
      const scores = CATEGORIES.map((category) =>
        Math.round((result?.lhr.categories[category]?.score ?? 0) * 100),
      );
      // A 404 is answered with its status on purpose: the browser logs the document's 404 as a console
      // error (best practices) and search engines are told so (SEO); the other two are held to 100.
      const held = path === '/Zzzzzzz' ? scores.slice(0, 2) : scores;
      const below = held.some((score) => score < GOAL);
      if (below) missed++;
      console.log(
        [name.padEnd(30), ...scores.map((score) => String(score).padStart(15)), below ? '  MISSED' : ''].join(
          '',
        ),
      );
      if (below) {
        const audits = Object.values(result?.lhr.audits ?? {})
          .filter(
            (audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative',
          )
          .map(
            (audit) =>
              `    ${audit.id}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`,
          );
        console.log(audits.slice(0, 8).join('\n'));
      }
    }
    console.log(missed === 0 ? '\nevery page met the goals' : `\n${missed} page(s) missed a goal`);
    return missed;
  } finally {
    chrome.kill();
    await snip.stop();
    killAll();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (missed) => process.exit(missed === 0 ? 0 : 1),
  (error: unknown) => {
    console.error(error);
    killAll();
    process.exit(1);
  },
);
