/**
 * Referrer hosts grouped into named sources (docs/api.md §19, docs/adr/044): one table, read by the
 * stats answer (the `referrer_sources` breakdown) and by the store (a `referrer` filter naming a
 * source matches its hosts). A pattern is a host (`t.co`: that host only) or a host with `.*`
 * (`google.*`: any host that starts with `google.`, so google.com and google.co.uk). Hosts are
 * stored lower case (9.1), so matching is exact on lower case. A host no source claims is its own
 * source; `direct` stays `direct`.
 */

export const REFERRER_SOURCES: ReadonlyArray<{ name: string; hosts: readonly string[] }> = [
  { name: 'Google', hosts: ['google.*', 'www.google.*', 'news.google.com', 'scholar.google.com'] },
  {
    name: 'X',
    hosts: ['t.co', 'twitter.com', 'www.twitter.com', 'mobile.twitter.com', 'x.com', 'www.x.com'],
  },
  {
    name: 'Facebook',
    hosts: [
      'facebook.com',
      'www.facebook.com',
      'm.facebook.com',
      'l.facebook.com',
      'lm.facebook.com',
      'fb.me',
    ],
  },
  { name: 'Instagram', hosts: ['instagram.com', 'www.instagram.com', 'l.instagram.com'] },
  { name: 'LinkedIn', hosts: ['linkedin.com', 'www.linkedin.com', 'lnkd.in'] },
  { name: 'Reddit', hosts: ['reddit.com', 'www.reddit.com', 'old.reddit.com', 'out.reddit.com', 'redd.it'] },
  { name: 'YouTube', hosts: ['youtube.com', 'www.youtube.com', 'm.youtube.com', 'youtu.be'] },
  { name: 'Bing', hosts: ['bing.com', 'www.bing.com', 'cn.bing.com'] },
  { name: 'DuckDuckGo', hosts: ['duckduckgo.com', 'html.duckduckgo.com', 'lite.duckduckgo.com'] },
  { name: 'Yahoo', hosts: ['search.yahoo.com', 'yahoo.com', 'www.yahoo.com'] },
  { name: 'Yandex', hosts: ['yandex.ru', 'yandex.com', 'ya.ru'] },
  { name: 'Baidu', hosts: ['baidu.com', 'www.baidu.com'] },
  { name: 'Pinterest', hosts: ['pinterest.com', 'www.pinterest.com', 'pin.it'] },
  { name: 'TikTok', hosts: ['tiktok.com', 'www.tiktok.com'] },
  { name: 'Hacker News', hosts: ['news.ycombinator.com'] },
  { name: 'GitHub', hosts: ['github.com'] },
  { name: 'Slack', hosts: ['slack.com', 'app.slack.com'] },
  { name: 'Telegram', hosts: ['t.me', 'web.telegram.org'] },
  { name: 'WhatsApp', hosts: ['wa.me', 'web.whatsapp.com'] },
  {
    name: 'Email',
    hosts: [
      'mail.google.com',
      'outlook.live.com',
      'outlook.office.com',
      'outlook.office365.com',
      'mail.yahoo.com',
      'mail.proton.me',
      'mail.aol.com',
      'mail.zoho.com',
      'app.fastmail.com',
      'webmail.*',
    ],
  },
];

const wildcard = (pattern: string) => pattern.endsWith('.*');

interface SourceIndex {
  exact: Map<string, string>;
  /** Host prefixes (`google.`) and their source, longest first so `www.google.` wins over `google.`. */
  prefixes: Array<[string, string]>;
  names: Map<string, string>;
}

let index: SourceIndex | undefined;

function sourceIndex(): SourceIndex {
  if (index) return index;
  const exact = new Map<string, string>();
  const prefixes: Array<[string, string]> = [];
  for (const { name, hosts } of REFERRER_SOURCES) {
    for (const host of hosts) {
      if (wildcard(host)) prefixes.push([host.slice(0, -1), name]);
      else exact.set(host, name);
    }
  }
  prefixes.sort((a, b) => b[0].length - a[0].length);
  const names = new Map(REFERRER_SOURCES.map(({ name }) => [name.toLowerCase(), name]));
  index = { exact, prefixes, names };
  return index;
}

/** The named source of a referrer host; undefined when no source claims it. Exact hosts win. */
export function namedSourceOf(host: string): string | undefined {
  const { exact, prefixes } = sourceIndex();
  const named = exact.get(host);
  if (named) return named;
  for (const [prefix, name] of prefixes)
    if (host.startsWith(prefix) && host.length > prefix.length) return name;
  return undefined;
}

/** The source a referrer host is counted under: its named source, or the host itself. */
export const sourceOf = (host: string): string => namedSourceOf(host) ?? host;

/** The source a name means (any letter case), as the table spells it; undefined for a host. */
export function sourceNamed(name: string): string | undefined {
  return sourceIndex().names.get(name.toLowerCase());
}

/**
 * What a store matches for a source: exact hosts and host prefixes (`google.`). A host claimed by
 * an exact entry of another source (mail.google.com is Email) is listed in `except`.
 */
export function hostsOfSource(name: string): { exact: string[]; prefixes: string[]; except: string[] } {
  const { exact } = sourceIndex();
  const own = REFERRER_SOURCES.find((source) => source.name === name)?.hosts ?? [];
  const prefixes = own.filter(wildcard).map((host) => host.slice(0, -1));
  const except = [...exact]
    .filter(([host, owner]) => owner !== name && prefixes.some((prefix) => host.startsWith(prefix)))
    .map(([host]) => host);
  return { exact: own.filter((host) => !wildcard(host)), prefixes, except };
}
