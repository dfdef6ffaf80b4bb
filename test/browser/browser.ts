import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's Chromium, headless, driven by playwright-core (no browser download). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = join(import.meta.dirname, 'artifacts');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Fails the test on any script error or dialog (an injected alert() would open one). */
export function watchForTrouble(page: Page): string[] {
  const trouble: string[] = [];
  page.on('pageerror', (error) => trouble.push(`page error: ${error.message}`));
  page.on('dialog', (dialog) => {
    trouble.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    // A refused API call (4xx) is logged by the browser as a failed resource: that is the answer, not trouble.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      trouble.push(`console: ${message.text()}`);
    }
  });
  return trouble;
}

/** A screenshot keeps at most this much of a page's height: the API reference is tens of thousands of px. */
const MAX_SHOT_HEIGHT = 6000;

/**
 * Screenshots are drawn when SNIP_SCREENSHOTS=1 asks for them (to look at every page), and for a
 * page that fails its checks: drawing a page whole in software is most of a browser test's CPU.
 */
const SCREENSHOTS = process.env.SNIP_SCREENSHOTS === '1';

/** The page from its top, as far down as MAX_SHOT_HEIGHT: an artifact to look at, bounded in cost on a busy machine. */
export async function screenshot(page: Page, name: string, failing = false): Promise<void> {
  if (!SCREENSHOTS && !failing) return;
  await mkdir(ARTIFACTS, { recursive: true });
  const { width, height } = await page.evaluate(() => ({
    width: document.documentElement.clientWidth,
    height: document.documentElement.scrollHeight,
  }));
  await page.screenshot({
    path: join(ARTIFACTS, `${name}.png`),
    fullPage: true,
    clip: { x: 0, y: 0, width, height: Math.min(height, MAX_SHOT_HEIGHT) },
  });
}
