import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Bowser from 'bowser';
import { rebuiltUserAgent } from '../../../src/features/compat/shlink/visit-agent.ts';

/**
 * A Shlink visit's `userAgent`, rebuilt from the OS and browser families Snip keeps, read back by
 * bowser (the parser Shlink's web client reads it with, and the one that named the families):
 * the same families come out of it, so the web client's OS and browser charts are not "Others".
 */

const { OS_MAP, BROWSER_MAP } = Bowser as unknown as {
  OS_MAP: Record<string, string>;
  BROWSER_MAP: Record<string, string>;
};

function parsed(userAgent: string) {
  const parser = Bowser.getParser(userAgent);
  return { os: parser.getOSName(), browser: parser.getBrowserName() };
}

/** Families bowser never names from a user agent alone: Brave by client hints, Roku by no rule, Generic is its fallback. */
const UNNAMED = new Set(['Brave', 'Roku', 'Generic']);
/** Browsers of one OS only, whose tokens name that OS. */
const HOME_OS: Readonly<Record<string, string>> = {
  'Android Browser': 'Android',
  'Samsung Internet for Android': 'Android',
  'WebOS Browser': 'WebOS',
  Bada: 'Bada',
  BlackBerry: 'BlackBerry',
  Tizen: 'Tizen',
};
const BROWSERS = Object.values(BROWSER_MAP).filter((family) => !UNNAMED.has(family));
const COMMON_OS = ['Windows', 'macOS', 'Linux', 'Android', 'iOS', 'Chrome OS'];

describe("a Shlink visit's rebuilt user agent", () => {
  it('names every OS family bowser knows', () => {
    for (const os of Object.values(OS_MAP)) {
      const agent = rebuiltUserAgent(os, 'Other');
      assert.equal(parsed(agent).os, os, agent);
    }
  });

  it('names every browser family bowser names from a user agent, on its own and on its home OS', () => {
    for (const browser of BROWSERS) {
      const home = HOME_OS[browser] ?? 'Other';
      const agent = rebuiltUserAgent(home, browser);
      assert.equal(parsed(agent).browser, browser, agent);
      if (home !== 'Other') assert.equal(parsed(agent).os, home, agent);
    }
  });

  it('keeps both families of every common OS with every browser found there', () => {
    for (const os of COMMON_OS) {
      for (const browser of BROWSERS) {
        const home = HOME_OS[browser];
        // Safari's tokens on Android are the Android Browser's, as bowser reads them.
        if ((home && home !== os) || (os === 'Android' && browser === 'Safari')) continue;
        const agent = rebuiltUserAgent(os, browser);
        assert.deepEqual(parsed(agent), { os, browser }, agent);
      }
    }
    assert.match(
      rebuiltUserAgent('Windows', 'Chrome'),
      /^Mozilla\/5\.0 \(Windows NT 10\.0; Win64; x64\) AppleWebKit\/537\.36 \(KHTML, like Gecko\) Chrome\//,
    );
  });

  it('names a browser bowser has no rule for by its product, and leaves a visit of no known family empty', () => {
    assert.deepEqual(parsed(rebuiltUserAgent('macOS', 'NewsReader')), { os: 'macOS', browser: 'NewsReader' });
    assert.equal(parsed(rebuiltUserAgent('Other', 'NewsReader')).browser, 'NewsReader');
    assert.equal(rebuiltUserAgent('Other', 'Other'), '');
    assert.equal(rebuiltUserAgent('', ''), '');
  });
});
