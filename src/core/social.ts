/** Social-network rule (docs/api.md §2.6): the host equals a listed domain or is a subdomain of one. */

export const DEFAULT_SOCIAL_DOMAINS: readonly string[] = [
  'facebook.com',
  'fb.com',
  'fb.me',
  'messenger.com',
  'instagram.com',
  'instagr.am',
  'threads.net',
  'twitter.com',
  'x.com',
  't.co',
  'tiktok.com',
  'linkedin.com',
  'lnkd.in',
  'pinterest.com',
  'pin.it',
  'reddit.com',
  'redd.it',
  'snapchat.com',
  'tumblr.com',
  'vk.com',
  'ok.ru',
  'weibo.com',
  'whatsapp.com',
  'wa.me',
  't.me',
  'telegram.me',
  'discord.com',
  'discord.gg',
  'bsky.app',
  'mastodon.social',
];

export type SocialMatcher = (hostname: string) => boolean;

export function socialMatcher(domains: readonly string[]): SocialMatcher {
  const listed = new Set(domains.map((d) => d.trim().toLowerCase().replace(/\.$/, '')).filter(Boolean));
  return (hostname) => {
    let host = hostname.toLowerCase().replace(/\.$/, '');
    // Walk up the labels: www.m.facebook.com → m.facebook.com → facebook.com → com.
    for (;;) {
      if (listed.has(host)) return true;
      const dot = host.indexOf('.');
      if (dot < 0) return false;
      host = host.slice(dot + 1);
    }
  };
}
