/**
 * Link previewers (docs/api.md §16): the fetchers that read a page's og:* and twitter:* tags to draw
 * a card in a chat or a feed, and never show the page to a person. Bot lists answer "is this a
 * bot?", which takes in crawlers, monitors and scripts too; a link's preview card is only for these.
 *
 * Each entry is the User-Agent token its service documents for its card fetcher (the services'
 * own crawler pages: X/Twitter cards, Slack's robots page, Meta's web crawlers, LinkedIn, Discord's
 * embeds, WhatsApp, Telegram, Skype and Microsoft Teams/Outlook, Pinterest, Reddit, Embedly,
 * Iframely, Mastodon's link cards, VK, Snapchat, Bluesky's card service, Yahoo Mail), matched
 * without regard to case. Apple's Messages sends the Facebook and Twitter tokens, so it is found by
 * those. Search crawlers (Googlebot, Applebot) and read-aloud or feed fetchers are left out: they
 * must see the redirect. Add a fetcher here with a sample of its User-Agent in the test.
 */
const PREVIEWERS: ReadonlyArray<readonly [name: string, token: RegExp]> = [
  // First: its User-Agent says "(like TwitterBot)".
  ['telegrambot', /TelegramBot/i],
  ['twitterbot', /Twitterbot/i],
  ['slackbot', /Slackbot-LinkExpanding/i],
  ['facebookexternalhit', /facebookexternalhit|Facebot/i],
  ['linkedinbot', /LinkedInBot/i],
  ['discordbot', /Discordbot/i],
  // Only its fetcher's User-Agent starts so; nothing a person browses with does.
  ['whatsapp', /^WhatsApp\//i],
  ['skypeuripreview', /SkypeUriPreview/i],
  ['microsoftpreview', /MicrosoftPreview/i],
  ['pinterest', /Pinterestbot|^Pinterest\//i],
  ['redditbot', /redditbot/i],
  ['embedly', /Embedly/i],
  ['iframely', /Iframely/i],
  // The server's fetcher: "http.rb/5.1.1 (Mastodon/4.2.0; +https://instance/)".
  ['mastodon', /\(Mastodon\//i],
  ['vkshare', /vkShare/i],
  ['snapchat', /Snap URL Preview/i],
  ['bluesky', /Cardyb/i],
  ['yahoo', /Yahoo Link Preview/i],
];

/** The previewer a User-Agent names (its name in the list), or undefined for any other client. */
export function previewerOf(userAgent: string | undefined): string | undefined {
  if (!userAgent) return undefined;
  for (const [name, token] of PREVIEWERS) if (token.test(userAgent)) return name;
  return undefined;
}

/** The names of the known previewers, in the order they are tried. */
export const PREVIEWER_NAMES: readonly string[] = PREVIEWERS.map(([name]) => name);
