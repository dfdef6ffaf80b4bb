import { getParser } from 'bowser';
import { LRUCache } from 'lru-cache';
import type { DeviceType } from '../core/analytics/model.ts';
import type { Device } from '../core/targeting.ts';

/** Which of the rule devices (docs/api.md §8.3) a user agent is; several hold at once. */
export type DeviceFacts = Readonly<Record<Device, boolean>>;

/** Enough for any real user agent (the OS and device tokens come first); more is only cost. */
const MAX_USER_AGENT = 1024;
const PHONE_OR_TABLET = new Set(['mobile', 'tablet']);
const UNKNOWN: DeviceFacts = Object.freeze({ ios: false, android: false, mobile: false, desktop: true });

/** What analytics record of a user agent (docs/api.md §9.1): families only, never the string. */
export interface AgentFamilies {
  device: DeviceType;
  /** OS family (`Windows`, `iOS`, …), `Other` when unknown. */
  os: string;
  /** Browser family (`Chrome`, `Firefox`, …), `Other` when unknown. */
  browser: string;
}

interface AgentInfo extends AgentFamilies {
  facts: DeviceFacts;
}

const NO_AGENT: AgentInfo = Object.freeze({ facts: UNKNOWN, device: 'other', os: 'Other', browser: 'Other' });
const DEVICE_TYPES: Readonly<Record<string, DeviceType>> = {
  desktop: 'desktop',
  mobile: 'mobile',
  tablet: 'tablet',
};

/**
 * The devices a user agent names (docs/adr/017): `ios` for iPhone, iPad and iPod, `android`, and
 * `mobile` for any phone or tablet (those two and the other mobile systems); `desktop` is whatever
 * is not mobile, an empty or unknown agent included. An iPad that asks for desktop sites (iPadOS
 * Safari's default) presents itself as a Mac and is desktop: the user agent cannot tell them apart.
 */
export function deviceOf(userAgent: string | undefined): DeviceFacts {
  return infoOf(userAgent).facts;
}

/** The device type, OS and browser families of a user agent; `other`/`Other` for none or unknown. */
export function familiesOf(userAgent: string | undefined): AgentFamilies {
  return infoOf(userAgent);
}

function infoOf(userAgent: string | undefined): AgentInfo {
  if (!userAgent) return NO_AGENT;
  const agent = userAgent.slice(0, MAX_USER_AGENT);
  let info = SEEN.get(agent);
  if (info === undefined) {
    info = parse(agent);
    SEEN.set(agent, info);
  }
  return info;
}

/**
 * User agents repeat: a few thousand strings make most of any site's traffic. Parsing one costs
 * about 5 µs; remembering the answers for the last 4,096 (about 1.5 MB, 5 MB at most) makes a repeat a lookup.
 */
const SEEN = new LRUCache<string, AgentInfo>({ max: 4096 });

/** A family name as stored: printable, short; `Other` when the parser names none. */
const family = (name: string) =>
  name
    .replace(/[^\x20-\x7e]/g, '')
    .slice(0, 40)
    .trim() || 'Other';

function parse(userAgent: string): AgentInfo {
  const parser = getParser(userAgent, true);
  const os = parser.getOSName();
  const platform = parser.getPlatformType(true);
  const ios = os === 'iOS';
  const android = os === 'Android';
  const mobile = ios || android || PHONE_OR_TABLET.has(platform);
  return {
    facts: { ios, android, mobile, desktop: !mobile },
    device: DEVICE_TYPES[platform] ?? (mobile ? 'mobile' : 'other'),
    os: family(os),
    browser: family(parser.getBrowserName()),
  };
}
