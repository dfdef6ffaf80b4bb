import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PREVIEWER_NAMES, previewerOf } from '../../../src/core/link-previewers.ts';
import { callApi } from '../../fixtures/api-client.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/** Social previews (docs/api.md §16): link previewers get the card's page, everyone else the redirect. */

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
const TWITTER = 'Twitterbot/1.0';
const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';
const FACEBOOK = 'facebookexternalhit/1.1';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const HOSTILE = '"><script>alert(1)</script>';

/** A sample User-Agent of every previewer in the list, as its service sends it. */
const SAMPLES: Record<string, string> = {
  twitterbot: TWITTER,
  slackbot: SLACK,
  facebookexternalhit: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  linkedinbot: 'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
  discordbot: 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  whatsapp: 'WhatsApp/2.23.20.0 A',
  telegrambot: 'TelegramBot (like TwitterBot)',
  skypeuripreview:
    'Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5 skype-url-preview@microsoft.com',
  microsoftpreview: 'Mozilla/5.0 (compatible; MicrosoftPreview/2.0; +https://aka.ms/MicrosoftPreview)',
  pinterest: 'Pinterest/0.2 (+https://www.pinterest.com/bot.html)',
  redditbot: 'Mozilla/5.0 (compatible; redditbot/1.0; +http://www.reddit.com/feedback)',
  embedly: 'Mozilla/5.0 (compatible; Embedly/0.2; +http://support.embed.ly/)',
  iframely: 'Iframely/1.3.1 (+https://iframely.com/docs/about)',
  mastodon: 'http.rb/5.1.1 (Mastodon/4.2.0; +https://mastodon.social/) Bot',
  vkshare: 'Mozilla/5.0 (compatible; vkShare; +http://vk.com/dev/Share)',
  snapchat: 'Snap URL Preview Service; bot; snapchat; https://developers.snap.com/robots',
  bluesky:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Bluesky Cardyb/1.1',
  yahoo:
    'Mozilla/5.0 (compatible; Yahoo Link Preview; https://help.yahoo.com/kb/mail/yahoo-link-preview-SLN23615.html)',
};

describe('the link previewers', () => {
  it('knows each listed previewer by its own User-Agent', () => {
    assert.deepEqual(Object.keys(SAMPLES).sort(), [...PREVIEWER_NAMES].sort());
    for (const [name, userAgent] of Object.entries(SAMPLES))
      assert.equal(previewerOf(userAgent), name, userAgent);
    // Apple's Messages fetches as Facebook's and Twitter's previewers at once.
    const messages =
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0';
    assert.notEqual(previewerOf(messages), undefined);
  });

  it('takes no browser, search crawler or script for one', () => {
    for (const userAgent of [
      BROWSER,
      GOOGLEBOT,
      'Mozilla/5.0 (compatible; Applebot/0.1; +http://www.apple.com/go/applebot)',
      'curl/8.0',
      'Slack-ImgProxy (+https://api.slack.com/robots)',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/400.0]',
      'Mastodon/2024.5 CFNetwork/1496.0.7 Darwin/23.5.0',
      '',
      undefined,
    ]) {
      assert.equal(previewerOf(userAgent), undefined, userAgent);
    }
  });
});

describe('previews on the redirect', () => {
  let t: TestApp;
  let now = Date.UTC(2026, 10, 23, 12);
  let origin = '';
  before(async () => {
    t = await startTestApp({ now: () => now, env: { CLICK_FLUSH_MS: '60000' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });
  after(() => t.close());

  async function link(body: Record<string, unknown>): Promise<string> {
    const answer = await callApi(t.app, 'POST', '/links', { key: t.apiKey, body });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return String(answer.body.short_code);
  }
  const visit = (path: string, userAgent: string, method: 'GET' | 'HEAD' = 'GET') =>
    t.app.inject({ method, url: path, headers: { 'user-agent': userAgent } });
  const overTheWire = (path: string, userAgent: string) =>
    fetch(`${origin}${path}`, { redirect: 'manual', headers: { 'user-agent': userAgent } });
  const countsOf = async (code: string) => {
    await t.app.clicks.flush();
    const { body } = await callApi(t.app, 'GET', `/links/${code}`, { key: t.apiKey });
    return { clicks: body.clicks, botHits: body.bot_hits };
  };
  const metaOf = (page: string, key: string) =>
    new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(page)?.[1];

  it('gives a Twitterbot the escaped card, a browser the redirect, and counts the card a bot hit', async () => {
    const code = await link({
      url: 'https://t.example/landing?a=1&b=2',
      preview: {
        title: HOSTILE,
        description: `${HOSTILE} & more`,
        image: 'https://img.example/card.png?w=1&h=2',
      },
    });
    const card = await visit(`/${code}`, TWITTER);
    assert.equal(card.statusCode, 200);
    assert.match(String(card.headers['content-type']), /^text\/html/);
    assert.match(String(card.headers['cache-control']), /no-store/);
    const policy = String(card.headers['content-security-policy']);
    assert.match(policy, /default-src 'none'/);
    assert.doesNotMatch(policy, /script-src/);
    assert.equal(card.headers['x-content-type-options'], 'nosniff');
    assert.equal(card.headers.location, undefined);
    const page = card.body;
    assert.doesNotMatch(page, /<script/i);
    const escaped = '&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;';
    assert.ok(page.includes(`<title>${escaped}</title>`));
    assert.equal(metaOf(page, 'og:title'), escaped);
    assert.equal(metaOf(page, 'og:description'), `${escaped} &#38; more`);
    assert.equal(metaOf(page, 'og:image'), 'https://img.example/card.png?w=1&#38;h=2');
    assert.equal(metaOf(page, 'og:url'), `https://sn.ip/${code}`);
    assert.equal(metaOf(page, 'og:type'), 'website');
    assert.equal(metaOf(page, 'twitter:card'), 'summary_large_image');
    assert.equal(metaOf(page, 'twitter:title'), escaped);
    assert.equal(metaOf(page, 'twitter:description'), `${escaped} &#38; more`);
    assert.equal(metaOf(page, 'twitter:image'), 'https://img.example/card.png?w=1&#38;h=2');
    const target = 'https://t.example/landing?a=1&#38;b=2';
    assert.ok(page.includes(`<meta http-equiv="refresh" content="0;url=${target}">`));
    assert.ok(page.includes(`<a href="${target}">`));

    const browser = await visit(`/${code}`, BROWSER);
    assert.equal(browser.statusCode, 302);
    assert.equal(browser.headers.location, 'https://t.example/landing?a=1&b=2');
    assert.deepEqual(await countsOf(code), { clicks: 1, botHits: 1 });
    const stats = await callApi(t.app, 'GET', `/links/${code}/stats`, { key: t.apiKey });
    assert.equal(stats.status, 200);
    const bots = stats.body.bots as Array<{ value: string; clicks: number }>;
    assert.deepEqual(bots, [{ value: 'twitterbot', clicks: 1 }]);
  });

  it('answers the same over the wire, HEAD with headers only, for every previewer', async () => {
    const code = await link({ url: 'https://t.example/wire', preview: { title: 'Spring sale' } });
    for (const userAgent of [TWITTER, SLACK, FACEBOOK]) {
      const card = await overTheWire(`/${code}`, userAgent);
      assert.equal(card.status, 200, userAgent);
      assert.equal(metaOf(await card.text(), 'og:title'), 'Spring sale');
    }
    const head = await visit(`/${code}`, TWITTER, 'HEAD');
    assert.equal(head.statusCode, 200);
    assert.match(String(head.headers['content-type']), /^text\/html/);
    assert.equal(head.body, '');
    const browser = await overTheWire(`/${code}`, BROWSER);
    assert.equal(browser.status, 302);
    assert.equal(browser.headers.get('location'), 'https://t.example/wire');
    // Other bots are redirected as before.
    const crawler = await overTheWire(`/${code}`, GOOGLEBOT);
    assert.equal(crawler.status, 302);
    assert.deepEqual(await countsOf(code), { clicks: 1, botHits: 5 });
    // Each previewer's hit is kept under the previewer's own name, whatever a bot list calls it.
    const stats = await callApi(t.app, 'GET', `/links/${code}/stats`, { key: t.apiKey });
    const kinds = (stats.body.bots as Array<{ value: string }>).map((row) => row.value).sort();
    assert.ok(
      ['facebookexternalhit', 'slackbot', 'twitterbot'].every((kind) => kinds.includes(kind)),
      String(kinds),
    );
  });

  it('redirects previewers of a link without a preview, and once the preview is removed', async () => {
    const code = await link({ url: 'https://t.example/bare' });
    for (const answer of [await visit(`/${code}`, TWITTER), await overTheWire(`/${code}`, TWITTER)]) {
      assert.equal('statusCode' in answer ? answer.statusCode : answer.status, 302);
    }
    const removable = await link({ url: 'https://t.example/was', preview: { title: 'Soon gone' } });
    assert.equal((await visit(`/${removable}`, TWITTER)).statusCode, 200);
    const patched = await callApi(t.app, 'PATCH', `/links/${removable}`, {
      key: t.apiKey,
      body: { preview: null },
    });
    assert.equal(patched.status, 200);
    assert.equal((await overTheWire(`/${removable}`, TWITTER)).status, 302);
    assert.deepEqual(await countsOf(code), { clicks: 0, botHits: 2 });
  });

  it("falls back to the link's title, and draws a small card without an image", async () => {
    const code = await link({
      url: 'https://t.example/titled',
      title: 'The link title',
      preview: { description: 'Only words' },
    });
    const page = (await visit(`/${code}`, SLACK)).body;
    assert.equal(metaOf(page, 'og:title'), 'The link title');
    assert.equal(metaOf(page, 'twitter:card'), 'summary');
    assert.equal(metaOf(page, 'og:image'), undefined);
    assert.equal(metaOf(page, 'twitter:image'), undefined);
  });

  it('counts a previewer no bot list knows as a bot, and forwards the query into the card', async () => {
    const code = await link({ url: 'https://t.example/fwd', forward_query: true, preview: { title: 'Fwd' } });
    const page = (await visit(`/${code}?b=2&qr=1`, SAMPLES.bluesky as string)).body;
    assert.ok(page.includes('content="0;url=https://t.example/fwd?b=2"'));
    assert.equal(
      (await overTheWire(`/${code}?b=2`, BROWSER)).headers.get('location'),
      'https://t.example/fwd?b=2',
    );
    assert.deepEqual(await countsOf(code), { clicks: 1, botHits: 1 });
  });

  it('never shows the target of a password link, and answers gone links 410', async () => {
    const secret = await link({
      url: 'https://t.example/secret-place',
      password: 'open sesame',
      preview: { title: 'Shh' },
    });
    const form = await visit(`/${secret}`, TWITTER);
    assert.equal(form.statusCode, 200);
    assert.doesNotMatch(form.body, /secret-place|og:title|http-equiv="refresh"/);
    assert.match(form.body, /type="password"/);

    const expiring = await link({
      url: 'https://t.example/expiring',
      expires_at: new Date(now + 60_000).toISOString(),
      preview: { title: 'Soon' },
    });
    assert.equal((await visit(`/${expiring}`, TWITTER)).statusCode, 200);
    now += 60_000;
    assert.equal((await visit(`/${expiring}`, TWITTER)).statusCode, 410);

    const limited = await link({ url: 'https://t.example/once', max_clicks: 1, preview: { title: 'Once' } });
    assert.equal((await visit(`/${limited}`, TWITTER)).statusCode, 200, 'a card takes no visit');
    assert.equal((await visit(`/${limited}`, BROWSER)).statusCode, 302);
    assert.equal((await visit(`/${limited}`, TWITTER)).statusCode, 410);

    const taken = await link({ url: 'https://t.example/taken-down', preview: { title: 'Down' } });
    const stored = await t.store.findLinkByCode(0, taken);
    assert.ok(stored && (await t.store.setLinkDisabled(stored.id, 'phishing')));
    t.app.linkCache.invalidate(taken);
    const gone = await visit(`/${taken}`, TWITTER);
    assert.equal(gone.statusCode, 410);
    assert.doesNotMatch(gone.body, /taken-down/);
    assert.deepEqual(await countsOf(secret), { clicks: 0, botHits: 0 });
  });

  it("puts a targeting rule's target in the card", async () => {
    const code = await link({
      url: 'https://t.example/en',
      rules: [{ if: { language: 'fr' }, url: 'https://t.example/fr' }],
      preview: { title: 'Bonjour' },
    });
    const page = await t.app.inject({
      method: 'GET',
      url: `/${code}`,
      headers: { 'user-agent': TWITTER, 'accept-language': 'fr' },
    });
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes('content="0;url=https://t.example/fr"'));
  });
});
