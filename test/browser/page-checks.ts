import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContextOptions, Cookie, Page } from 'playwright-core';
import { screenshot } from './browser.ts';

/**
 * The checks every page of Snip passes in a real Chromium, at 1280 px and at 390 px wide, in the
 * light and the dark scheme: no horizontal overflow, no element drawn over another, no serious or
 * critical accessibility violation (axe-core), and the layout findings below (short codes whole,
 * menus inside the screen, no blank space, no emoji flags). Screenshots of a failing page (of every
 * page with SNIP_SCREENSHOTS=1) go to test/browser/artifacts/.
 */

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

export interface Findings {
  /** Pixels the page is wider than the screen. */
  overflow: number;
  /** Pairs of elements drawn over each other, described. */
  overlaps: string[];
  /** Serious and critical axe-core violations: rule, impact, how many elements. */
  violations: string[];
  /** What the dashboard issue named as gone, still found: cut short codes, clipped menus, blank space, emoji flags. */
  layout: string[];
}

/** The rules whose outcome a change of colours alone can alter. */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/** Serious and critical axe-core violations of the page as it is now; only `rules` when given. */
export async function axeViolations(page: Page, rules?: readonly string[]): Promise<string[]> {
  // Evaluated through the DevTools protocol, which a strict CSP does not stop (no inline script).
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE);
  return page.evaluate(async (only) => {
    const axe = (
      globalThis as unknown as { axe: { run(context: Document, options: object): Promise<AxeResult> } }
    ).axe;
    interface AxeResult {
      violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[] }> }>;
    }
    const result = await axe.run(document, only ? { runOnly: { type: 'rule', values: only } } : {});
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}) on ${v.nodes.length}: ${JSON.stringify(v.nodes[0]?.target)}`);
  }, rules ?? null);
}

/** Visible elements whose boxes intersect without one containing the other. */
function findOverlaps(page: Page, exempt: string | undefined): Promise<string[]> {
  return page.evaluate((exempt) => {
    const selector =
      'a, button, input, select, textarea, summary, img, svg, h1, h2, h3, p, li, th, td, code, dt, dd, meter, figcaption, label';
    // Inside a clipped box (the visually hidden table head on a phone) or a closed menu, nothing shows.
    // Each box is judged once however many elements it holds (a long page nests thousands).
    const clips = new Map<Element, boolean>();
    const clipped = (element: Element): boolean => {
      const box = element.parentElement;
      if (!box) return false;
      let known = clips.get(box);
      if (known === undefined) {
        const rect = box.getBoundingClientRect();
        const style = getComputedStyle(box);
        known =
          ((rect.width <= 1 || rect.height <= 1) &&
            (style.overflow !== 'visible' || style.clipPath !== 'none')) ||
          clipped(box);
        clips.set(box, known);
      }
      return known;
    };
    const inClosedMenu = (element: Element) => {
      const details = element.closest('details');
      return details !== null && !details.open && element.closest('summary') === null;
    };
    const visible = Array.from(document.querySelectorAll<HTMLElement>(selector)).filter((element) => {
      if (element.closest('.visually-hidden, [hidden], .skip') || inClosedMenu(element) || clipped(element)) {
        return false;
      }
      if (exempt && element.matches(exempt)) return false;
      const box = element.getBoundingClientRect();
      return box.width > 1 && box.height > 1 && getComputedStyle(element).visibility !== 'hidden';
    });
    const rects = visible.map((element) =>
      [...element.getClientRects()].filter((r) => r.width > 1 && r.height > 1),
    );
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${element.className && typeof element.className === 'string' ? `.${element.className.split(' ')[0]}` : ''} "${(element.textContent ?? '').trim().slice(0, 30)}"`;
    const found: string[] = [];
    // Swept from the top: an element is compared only with those that start before it ends, so a
    // page of thousands of elements costs about as many comparisons as elements, not their square.
    const tops = rects.map((list) => Math.min(...list.map((r) => r.top)));
    const bottoms = rects.map((list) => Math.max(...list.map((r) => r.bottom)));
    const order = visible.map((_, i) => i).sort((i, j) => (tops[i] ?? 0) - (tops[j] ?? 0));
    for (let x = 0; x < order.length; x++) {
      const i = order[x] as number;
      for (let y = x + 1; y < order.length; y++) {
        const j = order[y] as number;
        if ((tops[j] ?? 0) >= (bottoms[i] ?? 0) - 2) break;
        const [a, b] = [visible[i] as HTMLElement, visible[j] as HTMLElement];
        if (a.contains(b) || b.contains(a)) continue;
        const hit = (rects[i] ?? []).some((r) =>
          (rects[j] ?? []).some((s) => {
            const w = Math.min(r.right, s.right) - Math.max(r.left, s.left);
            const h = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
            return w > 2 && h > 2;
          }),
        );
        if (hit) found.push(`${name(a)} × ${name(b)}`);
      }
    }
    return found.slice(0, 10);
  }, exempt);
}

/**
 * The checks of the dashboard's redesign, on any page: every `[data-code]` holder (a list row, the
 * link page's head) shows its short code whole — its text not cut by an ellipsis or a clipping box,
 * inside the screen; every open menu (a popover, an open details' panel) is inside the screen and not
 * clipped (the point at its centre is its own); the page is not much taller than its last visible
 * element (a hidden table that keeps its height leaves blank space); no flag is drawn as emoji.
 */
export function layoutFindings(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const visible = (element: Element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
    };
    const clippedBy = (element: Element, box: DOMRect) => {
      if (box.left < -1 || box.right > window.innerWidth + 1) return 'the screen';
      for (let up = element.parentElement; up; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (style.overflowX === 'visible' && style.overflowY === 'visible' && style.clipPath === 'none')
          continue;
        const clip = up.getBoundingClientRect();
        if (
          box.left < clip.left - 1 ||
          box.right > clip.right + 1 ||
          box.top < clip.top - 1 ||
          box.bottom > clip.bottom + 1
        ) {
          return `${up.tagName.toLowerCase()}.${up.className}`;
        }
      }
      return undefined;
    };
    for (const holder of document.querySelectorAll<HTMLElement>('[data-code]')) {
      const code = holder.dataset.code ?? '';
      if (!code || !visible(holder)) continue;
      const walker = document.createTreeWalker(holder, NodeFilter.SHOW_TEXT);
      let shown = false;
      let why = 'no text holds it';
      for (let node = walker.nextNode(); node && !shown; node = walker.nextNode()) {
        const at = (node.textContent ?? '').indexOf(code);
        if (at < 0 || !node.parentElement || !visible(node.parentElement)) continue;
        const text = node.parentElement;
        if (text.scrollWidth > text.clientWidth + 1 && getComputedStyle(text).textOverflow === 'ellipsis') {
          why = 'cut by an ellipsis';
          continue;
        }
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + code.length);
        const clip = clippedBy(text, range.getBoundingClientRect());
        if (clip) why = `clipped by ${clip}`;
        else shown = true;
      }
      if (!shown) found.push(`short code ${code} not shown whole: ${why}`);
    }
    const menus = [
      ...document.querySelectorAll<HTMLElement>(':popover-open'),
      ...[...document.querySelectorAll<HTMLElement>('details[open]')].flatMap((details) =>
        [...details.children].filter((child): child is HTMLElement => child.tagName !== 'SUMMARY'),
      ),
    ].filter((menu) => visible(menu) && getComputedStyle(menu).position !== 'static');
    for (const menu of menus) {
      const box = menu.getBoundingClientRect();
      const name = `${menu.tagName.toLowerCase()}.${menu.className}`;
      if (box.left < 0 || box.top < 0 || box.right > window.innerWidth || box.bottom > window.innerHeight) {
        found.push(`open menu ${name} leaves the screen`);
      }
      const centre = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      if (centre && !menu.contains(centre))
        found.push(`open menu ${name} is covered or clipped at its centre`);
    }
    let last = 0;
    for (const element of document.body.querySelectorAll('*')) {
      if (!visible(element) || element.closest('.visually-hidden')) continue;
      last = Math.max(last, element.getBoundingClientRect().bottom + window.scrollY);
    }
    const height = document.documentElement.scrollHeight;
    if (height > 1.2 * Math.max(last, window.innerHeight)) {
      found.push(`page is ${height}px tall, its last visible element ends at ${Math.round(last)}px`);
    }
    if (/[\u{1F1E6}-\u{1F1FF}]/u.test(document.body.innerText)) found.push('a flag drawn as emoji');
    return found;
  });
}

export interface CheckOptions {
  /** Cookies of a signed-in browser. */
  cookies?: Parameters<import('playwright-core').BrowserContext['addCookies']>[0];
  /** Waits for this before checking (e.g. a script's result). */
  ready?: (page: Page) => Promise<void>;
  /** Elements drawn over each other by design, left out of the overlap check (say why where it is set). */
  overlapsByDesign?: string;
}

/**
 * Opens the page at the desktop width and checks it in the light scheme, then switches it to the dark
 * one (only colours change, so the dark pass runs axe's colour rules) and checks it again; then the
 * same at the phone's width. A page without a `ready` step is loaded once and narrowed: a new load
 * and a new renderer parsing axe anew (~0.4 s on these machines) were a quarter of a check. A page
 * with one is loaded again at the phone's width, where the step (a menu opened, a field filled) is
 * done as a phone's user would. Writes the screenshots, returns what is wrong.
 */
export async function checkPage(
  browser: Browser,
  url: string,
  name: string,
  options: CheckOptions = {},
): Promise<Record<string, Findings>> {
  const report: Record<string, Findings> = {};
  let page: Page | undefined;
  for (const [width, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    if (page && !options.ready) {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: 'light' });
      await nextFrame(page);
    } else {
      await page?.context().close();
      page = await openPage(browser, url, viewport, options);
    }
    for (const colorScheme of ['light', 'dark'] as const) {
      if (colorScheme === 'dark') {
        await page.emulateMedia({ colorScheme });
        await nextFrame(page);
      }
      const where = `${width} ${colorScheme}`;
      report[where] = {
        overflow: await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
        overlaps: await findOverlaps(page, options.overlapsByDesign),
        violations: await axeViolations(page, colorScheme === 'dark' ? COLOUR_RULES : undefined),
        layout: await layoutFindings(page),
      };
      const failing = problems({ [where]: report[where] }).length > 0;
      await screenshot(page, `${name}-${width}${colorScheme === 'dark' ? '-dark' : ''}`, failing);
    }
  }
  await page?.context().close();
  return report;
}

/** The page loaded in a context of its own at `viewport`, light, with the options' cookies, ready. */
async function openPage(
  browser: Browser,
  url: string,
  viewport: { width: number; height: number },
  options: CheckOptions,
): Promise<Page> {
  const settings: BrowserContextOptions = { viewport, colorScheme: 'light' };
  const context = await browser.newContext(settings);
  if (options.cookies) await context.addCookies(options.cookies);
  const page = await context.newPage();
  await page.goto(url);
  await options.ready?.(page);
  return page;
}

/** Resolves once the page has drawn a frame: a change of viewport or scheme has been laid out. */
const nextFrame = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined))));

/** Every finding of a report, as lines; empty when the page passes. */
export function problems(report: Record<string, Findings>): string[] {
  return Object.entries(report).flatMap(([where, found]) => [
    ...(found.overflow > 0 ? [`${where}: ${found.overflow}px wider than the screen`] : []),
    ...found.overlaps.map((overlap) => `${where}: overlap ${overlap}`),
    ...found.violations.map((violation) => `${where}: ${violation}`),
    ...found.layout.map((finding) => `${where}: ${finding}`),
  ]);
}

/** Signs in through the sign-in form at desktop width and hands back the session's cookies. */
export async function signInCookies(
  browser: Browser,
  base: string,
  email: string,
  password: string,
): Promise<Cookie[]> {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  await page.goto(`${base}/login`);
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', password);
  await page.click('form[action="/login"] button[type=submit]');
  await page.waitForURL(/\/w\/[a-z0-9-]+$/);
  const cookies = await context.cookies();
  await context.close();
  return cookies;
}
