import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Device } from '../../../src/core/targeting.ts';
import { deviceOf } from '../../../src/http/visitor-device.ts';

/** Real user agents and the rule devices (docs/api.md §8.3) each one is. */
const AGENTS: [name: string, userAgent: string | undefined, devices: Device[]][] = [
  [
    'Chrome on Windows',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    ['desktop'],
  ],
  [
    'Edge on Windows',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
    ['desktop'],
  ],
  [
    'Firefox on Windows',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
    ['desktop'],
  ],
  [
    'Safari on macOS',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
    ['desktop'],
  ],
  [
    'Chrome on macOS',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    ['desktop'],
  ],
  [
    'Firefox on macOS',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0',
    ['desktop'],
  ],
  [
    'Chrome on Linux',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    ['desktop'],
  ],
  [
    'Firefox on Linux',
    'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
    ['desktop'],
  ],
  [
    'Chrome on ChromeOS',
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    ['desktop'],
  ],
  [
    'Safari on iPhone',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    ['ios', 'mobile'],
  ],
  [
    'Chrome on iPhone',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
    ['ios', 'mobile'],
  ],
  [
    'an in-app browser on iPhone',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/22B83 Instagram 356.0.0.41.101 (iPhone15,3; iOS 18_1; en_US; en; scale=3.00; 1290x2796; 658350436)',
    ['ios', 'mobile'],
  ],
  [
    'Safari on iPad (mobile site)',
    'Mozilla/5.0 (iPad; CPU OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.7 Mobile/15E148 Safari/604.1',
    ['ios', 'mobile'],
  ],
  [
    'Safari on iPod touch',
    'Mozilla/5.0 (iPod touch; CPU iPhone OS 15_8 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.6.6 Mobile/15E148 Safari/604.1',
    ['ios', 'mobile'],
  ],
  [
    'Chrome on an Android phone',
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    ['android', 'mobile'],
  ],
  [
    'Chrome on an Android tablet',
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    ['android', 'mobile'],
  ],
  [
    'Samsung Internet',
    'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
    ['android', 'mobile'],
  ],
  [
    'Firefox on Android',
    'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0',
    ['android', 'mobile'],
  ],
  [
    'Firefox on an Android tablet',
    'Mozilla/5.0 (Android 14; Tablet; rv:133.0) Gecko/133.0 Firefox/133.0',
    ['android', 'mobile'],
  ],
  [
    'a KaiOS feature phone',
    'Mozilla/5.0 (Mobile; Nokia_8110_4G; rv:48.0) Gecko/48.0 Firefox/48.0 KAIOS/2.5',
    ['mobile'],
  ],
  [
    'a HarmonyOS phone',
    'Mozilla/5.0 (Phone; OpenHarmony 4.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 Mobile HuaweiBrowser/5.0.4.300',
    ['mobile'],
  ],
  [
    'the crawler of a search engine',
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    ['desktop'],
  ],
  [
    'the smartphone crawler of a search engine',
    'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.204 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    ['android', 'mobile'],
  ],
  ['curl', 'curl/8.5.0', ['desktop']],
  ['an unknown agent', 'hello', ['desktop']],
  ['an empty user agent', '', ['desktop']],
  ['no user agent', undefined, ['desktop']],
];

describe('deviceOf', () => {
  for (const [name, userAgent, devices] of AGENTS) {
    it(`finds ${name} to be ${devices.join(' and ')}`, () => {
      const facts = deviceOf(userAgent);
      const holding = (['ios', 'android', 'mobile', 'desktop'] as const).filter((device) => facts[device]);
      assert.deepEqual(holding, devices);
    });
  }

  it('takes an iPad that asks for desktop sites, as iPadOS Safari does by default, for the Mac it claims to be', () => {
    // The same bytes a Mac sends: nothing in the user agent says "touch screen".
    const ipadOsSafari =
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.7 Safari/605.1.15';
    assert.deepEqual(deviceOf(ipadOsSafari), { ios: false, android: false, mobile: false, desktop: true });
  });

  it('answers quickly on a hostile 16 KB user agent, reading only its first kilobyte', () => {
    const started = performance.now();
    for (const filler of ['a', '(', 'Version/1.']) {
      const facts = deviceOf(`${filler.repeat(16_384 / filler.length)} iPhone`);
      assert.equal(facts.desktop, true, 'the iPhone token past the first kilobyte is not read');
    }
    assert.ok(performance.now() - started < 1000);
  });
});
