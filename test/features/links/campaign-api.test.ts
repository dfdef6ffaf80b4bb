import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { withUtm } from '../../../src/core/link-campaign.ts';
import { callApi } from '../../fixtures/api-client.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/** Campaign parameters, query forwarding and social previews on the links API (docs/api.md §16). */

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const api = (method: string, path: string, body?: unknown) =>
  callApi(t.app, method, path, { key: t.apiKey, ...(body === undefined ? {} : { body }) });

describe('withUtm', () => {
  it('replaces the same keys where they stand, keeps every other parameter byte for byte, appends the rest in order', () => {
    assert.equal(
      withUtm('https://e.example/p?b=%20x&utm_medium=old&a=1&utm_medium=again#top', {
        source: 'news letter',
        medium: 'mail',
      }),
      'https://e.example/p?b=%20x&utm_medium=mail&a=1&utm_source=news%20letter#top',
    );
    assert.equal(withUtm('https://e.example/?utm_source=x&k=v', { source: '' }), 'https://e.example/?k=v');
    assert.equal(withUtm('https://e.example/', { source: '' }), 'https://e.example/');
    assert.equal(
      withUtm('https://e.example/?x', { campaign: 'a&b#c=d', term: 'ü ✓' }),
      'https://e.example/?x&utm_campaign=a%26b%23c%3Dd&utm_term=%C3%BC%20%E2%9C%93',
    );
  });
});

describe('campaign fields on /api/v1/links', () => {
  it('writes utm into long_url on create and edit, and shows forward_query and preview', async () => {
    const created = await api('POST', '/links', {
      url: 'https://shop.example/sale?ref=a&utm_source=old',
      utm: { source: 'newsletter', medium: 'email', campaign: 'spring & summer' },
      forward_query: true,
      preview: {
        title: '<b>Sale</b>',
        description: 'Everything half price',
        image: 'https://img.example/c.png',
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(
      created.body.long_url,
      'https://shop.example/sale?ref=a&utm_source=newsletter&utm_medium=email&utm_campaign=spring%20%26%20summer',
    );
    assert.equal(created.body.forward_query, true);
    assert.deepEqual(created.body.preview, {
      title: '<b>Sale</b>',
      description: 'Everything half price',
      image: 'https://img.example/c.png',
    });
    const code = created.body.short_code as string;
    const edited = await api('PATCH', `/links/${code}`, {
      utm: { medium: '', content: 'hero' },
      preview: null,
    });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.equal(
      edited.body.long_url,
      'https://shop.example/sale?ref=a&utm_source=newsletter&utm_campaign=spring%20%26%20summer&utm_content=hero',
    );
    assert.equal(edited.body.preview, null);
    assert.equal(edited.body.forward_query, true);
    const off = await api('PATCH', `/links/${code}`, { forward_query: false });
    assert.equal(off.body.forward_query, false);
    const plain = await api('POST', '/links', { url: 'https://shop.example/plain' });
    assert.equal(plain.body.forward_query, false);
    assert.equal(plain.body.preview, null);
  });

  it('refuses utm and previews of the wrong shape or size with 300', async () => {
    for (const body of [
      { utm: { source: 'x'.repeat(501) } },
      { utm: { source: 'x'.repeat(2000) } },
      { utm: { color: 'red' } },
      { utm: 'source=x' },
      { utm: { source: 'a\u0000b' } },
      {
        utm: {
          source: 'x'.repeat(500),
          medium: 'y'.repeat(500),
          campaign: 'z'.repeat(500),
          term: 'w'.repeat(500),
        },
      },
      { preview: { title: 't'.repeat(201) } },
      { preview: { description: 'd'.repeat(10_000) } },
      { preview: { image: 'http://img.example/a.png' } },
      { preview: { image: 'javascript:alert(1)' } },
      { preview: { title: 'a', extra: 1 } },
      { preview: 'a card' },
      { forward_query: 'yes' },
    ]) {
      const answer = await api('POST', '/links', { url: 'https://shop.example/refused', ...body });
      assert.equal(answer.status, 400, JSON.stringify(body).slice(0, 80));
      assert.equal(answer.body.code, '300', JSON.stringify(body).slice(0, 80));
    }
  });
});
