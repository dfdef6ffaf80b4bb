import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helper.ts';
import { launchBrowser, screenshot, watchForTrouble } from './browser.ts';
import { axeViolations, COLOUR_RULES, DESKTOP } from './page-checks.ts';

/**
 * GET /docs in Chromium: Redoc, served from Snip's own assets under the page's nonce policy, shows
 * every operation /openapi.json describes — whatever operations exist when the test runs.
 */

interface Operation {
  method: string;
  path: string;
  operationId: string;
  summary: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function operationsOf(document: {
  paths: Record<string, Record<string, Record<string, unknown>>>;
}): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({
        method,
        path,
        operationId: String(operation.operationId),
        summary: String(operation.summary),
      })),
  );
}

describe('the API reference page in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let operations: Operation[];

  before(async () => {
    t = await startTestApp({ env: { BASE_URL: 'http://snip.test' } });
    operations = operationsOf((await t.app.inject({ method: 'GET', url: '/openapi.json' })).json());
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  /** Opens /docs, recording CSP violations and every request that leaves this server. */
  async function openDocs(width = DESKTOP) {
    const context = await browser.newContext({ viewport: width });
    const page = await context.newPage();
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) =>
        seen.push(`${event.effectiveDirective} ${event.blockedURI}`),
      );
    });
    const trouble = watchForTrouble(page);
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(`${base}/`) && !url.startsWith('data:')) elsewhere.push(url);
    });
    await page.goto(`${base}/docs`);
    await page.waitForSelector('#redoc[data-state]');
    return { context, page, trouble, elsewhere };
  }

  const violations = (page: Page) =>
    page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);

  /** Redoc renders once per file: the cases below read the same page, each its own part of it. */
  let opened: ReturnType<typeof openDocs> | undefined;
  const docs = () => {
    opened ??= openDocs();
    return opened;
  };
  after(async () => (await opened)?.context.close());

  it('shows every operation of /openapi.json, with no script error, CSP violation or request elsewhere', async () => {
    assert.ok(operations.length > 0);
    assert.ok(operations.some((operation) => operation.path === '/create'));
    const { page, trouble, elsewhere } = await docs();
    assert.equal(await page.getAttribute('#redoc', 'data-state'), 'ready');
    assert.equal(await page.title(), 'Snip API reference');
    for (const { method, path, operationId, summary } of operations) {
      const section = page.locator(`[id="operation/${operationId}"]`);
      assert.equal(await section.count(), 1, `${method} ${path} has its section`);
      assert.equal(
        (await section.locator('h2').first().textContent())?.trim(),
        summary,
        `${method} ${path} is headed by its summary`,
      );
      // The endpoint line above its samples: the method, then the path.
      const endpoints = await section
        .locator('button')
        .evaluateAll((buttons) => buttons.map((button) => (button.textContent ?? '').replace(/\s+/g, '')));
      assert.ok(endpoints.includes(`${method}${path}`), `${method} ${path} shows its method and path`);
    }
    await screenshot(page, 'docs-reference');
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(trouble, []);
    assert.deepEqual(elsewhere, []);
  });

  // The longest case of the suite (axe over the whole reference opened): ~50 s alone, several times
  // that with another suite beside it on two cores; the bound is against a hang, not a speed.
  it('keeps colour contrast with every response of every operation opened', {
    timeout: 900_000,
  }, async () => {
    const { page, trouble } = await docs();
    // Responses start closed, each title (a button around its status) opens one; then every property
    // and sample that opens, nested ones as they appear. Clicked in the page: many are off screen.
    const expanded = await page.evaluate(async () => {
      const responses = document.querySelectorAll<HTMLButtonElement>('#redoc button:has(> strong)');
      for (const response of responses) response.click();
      const clicked = new WeakSet<Element>();
      let more = 0;
      for (let round = 0; round < 50; round++) {
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const fresh = [...document.querySelectorAll('#redoc button[aria-label^="expand"]')].filter(
          (button) => !clicked.has(button),
        );
        if (fresh.length === 0) break;
        for (const button of fresh) {
          clicked.add(button);
          (button as HTMLButtonElement).click();
          more++;
        }
      }
      return { responses: responses.length, more };
    });
    assert.ok(expanded.responses >= operations.length, `${expanded.responses} responses opened`);
    assert.ok(expanded.more > 0, 'properties opened');
    // The colour rules: the page's other rules are checked closed, at both widths, by pages.test.ts.
    assert.deepEqual(await axeViolations(page, COLOUR_RULES), []);
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(trouble, []);
  });

  it('links the reference from the navigation and the footer of every page', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/tester`);
    assert.equal(await page.locator('header nav a[href="/docs"]').count(), 1);
    assert.equal(await page.locator('footer a[href="/docs"]').count(), 1);
    assert.equal(await page.getAttribute('header nav a[href="/docs"]', 'aria-current'), null);
    await page.close();
    // The reference itself marks its own entry as the current page.
    const { page: reference } = await docs();
    assert.equal(await reference.getAttribute('header nav a[href="/docs"]', 'aria-current'), 'page');
  });
});
