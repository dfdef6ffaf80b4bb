/**
 * A visit's `userAgent` for Shlink's clients, rebuilt from the OS and browser families Snip keeps
 * (docs/api.md §9.2: a visitor's user agent is never stored). Shlink's web client reads the OS and
 * the browser of each visit with a user agent parser (bowser), so the string is made of the
 * canonical tokens such parsers know for each family: the same families come back out of it.
 */

/** The platform part for each OS family bowser names (src/http/visitor-device.ts stores them). */
const PLATFORMS: Readonly<Record<string, string>> = {
  Windows: 'Windows NT 10.0; Win64; x64',
  macOS: 'Macintosh; Intel Mac OS X 10_15_7',
  Linux: 'X11; Linux x86_64',
  Android: 'Linux; Android 14',
  iOS: 'iPhone; CPU iPhone OS 17_0 like Mac OS X',
  'Chrome OS': 'X11; CrOS x86_64 15633.69.0',
  'Windows Phone': 'Windows Phone 10.0; Lumia 950',
  HarmonyOS: 'Phone; OpenHarmony 5.0',
  WebOS: 'Web0S; SmartTV',
  BlackBerry: 'BB10; Touch',
  Bada: 'SAMSUNG; Bada 2.0',
  Tizen: 'SMART-TV; Tizen 6.0',
  'PlayStation 4': 'PlayStation 4 11.00',
  Roku: 'Roku/DVP-12.0',
};

const WEBKIT = 'AppleWebKit/537.36 (KHTML, like Gecko)';
const CHROME = `${WEBKIT} Chrome/124.0.0.0 Safari/537.36`;
const SAFARI = 'AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
const GECKO = 'Gecko/20100101';

/** The product tokens for each browser family whose name is not its own token. */
const BROWSERS: Readonly<Record<string, string>> = {
  Chrome: CHROME,
  Chromium: `${WEBKIT} Chromium/124.0.0.0 Chrome/124.0.0.0 Safari/537.36`,
  'Microsoft Edge': `${CHROME} Edg/124.0.0.0`,
  Opera: `${CHROME} OPR/109.0.0.0`,
  Vivaldi: `${CHROME} Vivaldi/6.7`,
  'Yandex Browser': `${CHROME} YaBrowser/24.4.0.0`,
  'Samsung Internet for Android': `${WEBKIT} SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36`,
  'UC Browser': `${WEBKIT} UCBrowser/13.4.0.1306 Mobile Safari/537.36`,
  'NAVER Whale Browser': `${CHROME} Whale/3.25.232.19`,
  'Amazon Silk': `${WEBKIT} Silk/124.2.1 like Chrome/124.0.0.0 Safari/537.36`,
  Electron: `${CHROME} Electron/30.0.0`,
  'Android Browser': 'AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30',
  Safari: SAFARI,
  Firefox: `${GECKO} Firefox/125.0`,
  LibreWolf: `${GECKO} Firefox/125.0 LibreWolf/125.0`,
  'Pale Moon': `${GECKO} Goanna/6.5 Firefox/115.0 PaleMoon/33.0`,
  SeaMonkey: `${GECKO} Firefox/115.0 SeaMonkey/2.53.18`,
  'Internet Explorer': 'Trident/7.0 like Gecko',
  'Opera Coast': `${SAFARI} Coast/5.04`,
  'HeyTap Browser': `${CHROME} HeyTapBrowser/45.11`,
  'Vivo Browser': `${CHROME} VivoBrowser/14.0`,
  'MZ Browser': `${CHROME} MZBrowser/8.2`,
  'QQ Browser': `${CHROME} QQBrowser/12.6`,
  'QQ Browser Lite': `${CHROME} QQBrowserLite/1.3`,
  'Sogou Browser': `${CHROME} SE 2.X MetaSr 1.0`,
  'WebOS Browser': `${WEBKIT} webOS.TV/6.0`,
  WeChat: `${CHROME} MicroMessenger/8.0.49`,
  Miui: `${CHROME} MiuiBrowser/18.0`,
  'Google Search': `${SAFARI} GSA/315.0`,
  DuckDuckGo: `${SAFARI} Ddg/17.0`,
  BingCrawler: 'bingbot/2.0',
  InternetArchiveCrawler: 'ia_archiver/1.0',
};

/** A family name as a product token, as bowser reads the name of one it has no rule for. */
const tokenOf = (family: string) => family.replace(/[^A-Za-z0-9._-]/g, '') || 'Other';

const known = (family: string) => (family && family !== 'Other' ? family : undefined);

/**
 * `Mozilla/5.0 (platform) browser`, the parts known: a Windows Chrome visit is
 * `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/…`.
 * A browser family bowser has no rule for was named from its user agent's first product, so it
 * comes first: `Name/1.0 (platform)`. Empty when neither family is known, as Shlink leaves a
 * visit without a user agent.
 */
export function rebuiltUserAgent(osFamily: string, browserFamily: string): string {
  const os = known(osFamily);
  const browser = known(browserFamily);
  if (!os && !browser) return '';
  const platform = os ? (Object.hasOwn(PLATFORMS, os) ? PLATFORMS[os] : tokenOf(os)) : undefined;
  if (browser && !Object.hasOwn(BROWSERS, browser)) {
    return `${tokenOf(browser)}/1.0 (${platform ?? 'compatible'})`;
  }
  const product = browser ? ` ${BROWSERS[browser]}` : '';
  return `Mozilla/5.0${platform ? ` (${platform})` : ''}${product}`;
}
