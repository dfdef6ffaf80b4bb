/**
 * A refused create or change of a link said to a person: the plain sentence for each code, and
 * the field of the link forms it is about. One table for every place a person sees such a refusal:
 * the dashboard's link forms (features/links/pages/link-field-errors.ts) and the demo on the landing
 * page and the tester, which send it to the browser as page data. A code not here keeps the
 * message it came with, which already says what was wrong (300: which field, and how), except a
 * 300 about the long URL, which has a sentence per cause (URL_FAULT_TEXT, docs/api.md §18).
 */

import type { UrlFault } from '../core/url-input.ts';

export type LinkField = 'url' | 'slug' | 'group' | 'domain';

export const LINK_REFUSAL_TEXT: Readonly<Record<string, { field?: LinkField; text: string }>> = {
  '302': { field: 'url', text: 'Enter the long URL to shorten.' },
  '304': { text: 'Your plan’s link limit is reached. Delete links you no longer need, or upgrade.' },
  '305': { field: 'url', text: 'You already have a short link for this URL.' },
  '306': { field: 'url', text: 'That page could not be reached. Check the address and try again.' },
  '307': { field: 'url', text: 'That page does not exist (it answers “Not found”). Check the address.' },
  '308': { field: 'url', text: 'That page blocks automated checks, so it cannot be shortened.' },
  '309': { field: 'url', text: 'That page is behind a bot challenge, so it cannot be checked.' },
  '310': { field: 'url', text: 'Links to social networks cannot be shortened here.' },
  '311': { field: 'url', text: 'That page is empty. Check the address.' },
  '312': { field: 'group', text: 'That group no longer exists. Choose another.' },
  '313': { field: 'slug', text: 'That code is taken. Try another one.' },
  '314': { text: 'This link no longer exists.' },
  '316': { field: 'url', text: 'That address is on a list of harmful sites.' },
  '317': { field: 'domain', text: 'That domain cannot be used yet: it is not verified for this workspace.' },
  '320': { field: 'url', text: 'Use a public web address that starts with http:// or https://.' },
};

/** A long URL refused as malformed (300), one sentence per cause (core/url-input.ts). */
export const URL_FAULT_TEXT: Readonly<Record<UrlFault, string>> = {
  'no-scheme': 'Start the address with https:// or http://, e.g. https://example.com/page.',
  scheme: 'Only web addresses can be shortened: use one that starts with https:// or http://.',
  credentials: 'Remove the user name or password from the address: a short link would show them to everyone.',
  'too-long': 'That address is longer than 2,048 characters, the most a link can lead to. Shorten it.',
  malformed: 'That is not a web address Snip can read. Check it for spaces or typos.',
};

/** 305 for a URL that points at Snip itself: its own sentence, not the duplicate's. */
export const OWN_URL_TEXT = 'That address is on this Snip itself: a short link has to lead to another site.';
