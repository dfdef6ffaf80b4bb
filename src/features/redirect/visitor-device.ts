import { getParser } from 'bowser';
import { LRUCache } from 'lru-cache';
import type { Device } from '../../core/targeting.ts';

/** Which of the rule devices (docs/api.md §8.3) a user agent is; several hold at once. */
export type DeviceFacts = Readonly<Record<Device, boolean>>;

/** Enough for any real user agent (the OS and device tokens come first); more is only cost. */
const MAX_USER_AGENT = 1024;
const PHONE_OR_TABLET = new Set(['mobile', 'tablet']);
const UNKNOWN: DeviceFacts = Object.freeze({ ios: false, android: false, mobile: false, desktop: true });

/**
 * The devices a user agent names (docs/adr/017): `ios` for iPhone, iPad and iPod, `android`, and
 * `mobile` for any phone or tablet (those two and the other mobile systems); `desktop` is whatever
 * is not mobile, an empty or unknown agent included. An iPad that asks for desktop sites (iPadOS
 * Safari's default) presents itself as a Mac and is desktop: the user agent cannot tell them apart.
 */
export function deviceOf(userAgent: string | undefined): DeviceFacts {
  if (!userAgent) return UNKNOWN;
  const agent = userAgent.slice(0, MAX_USER_AGENT);
  let facts = SEEN.get(agent);
  if (facts === undefined) {
    facts = parse(agent);
    SEEN.set(agent, facts);
  }
  return facts;
}

/**
 * User agents repeat: a few thousand strings make most of any site's traffic. Parsing one costs
 * about 5 µs; remembering the answers for the last 4,096 (about 1 MB, 5 MB at most) makes a repeat a lookup.
 */
const SEEN = new LRUCache<string, DeviceFacts>({ max: 4096 });

function parse(userAgent: string): DeviceFacts {
  const parser = getParser(userAgent, true);
  const os = parser.getOSName();
  const ios = os === 'iOS';
  const android = os === 'Android';
  const mobile = ios || android || PHONE_OR_TABLET.has(parser.getPlatformType());
  return { ios, android, mobile, desktop: !mobile };
}
