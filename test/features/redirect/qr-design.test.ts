import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { drawPng, qrModules } from '../../../src/adapters/qr/qr-draw.ts';
import { UnavailableError } from '../../../src/core/errors.ts';
import { QR_DEFAULT_LOOK, type QrEcc } from '../../../src/core/qr-design.ts';
import { WorkspaceRenders } from '../../../src/features/redirect/qrcode.ts';
import { assertProblem, callApi, keyWithScopes } from '../../fixtures/api-client.ts';
import { createJson, startTestApp, type TestApp } from '../../helper.ts';

/** Designed QR codes (docs/api.md §16): /qrcode/<code>.png|.svg and GET /api/v1/links/{code}/qr. */

// jsqr is CommonJS: at run time its default import is the decoder function itself.
const jsQR = jsQRModule as unknown as (typeof jsQRModule)['default'];

/** What an image reads as, and the colour at the centre of its top-left finder pattern: the dark modules' colour. */
function decode(rgba: Uint8Array, side: number): { text?: string; ink?: string } {
  const found = jsQR(new Uint8ClampedArray(rgba), side, side, { inversionAttempts: 'attemptBoth' });
  if (!found) return {};
  const { x, y } = found.location.topLeftFinderPattern;
  const at = (Math.round(y) * side + Math.round(x)) * 4;
  const ink = [0, 1, 2].map((i) => (rgba[at + i] ?? 0).toString(16).padStart(2, '0')).join('');
  return { text: found.data, ink: `#${ink}` };
}

/**
 * The image as it is read where it is placed: on a page of its background colour, so a code drawn
 * with margin 0 gets the quiet zone a scanner needs from around it (`pad` pixels each side).
 */
function onPaper(rgba: Uint8Array, side: number, paper: string, pad: number): Uint8Array {
  const whole = side + 2 * pad;
  const out = new Uint8Array(whole * whole * 4);
  const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(paper.slice(at, at + 2), 16));
  for (let at = 0; at < out.length; at += 4) out.set([r ?? 0, g ?? 0, b ?? 0, 255], at);
  for (let y = 0; y < side; y++)
    out.set(rgba.subarray(y * side * 4, (y + 1) * side * 4), ((y + pad) * whole + pad) * 4);
  return out;
}

/** A PNG's side, the colours it holds (sorted) and what it reads as on a page of `paper` (white by default). */
function readPng(bytes: Buffer, paper = '#ffffff') {
  const png = PNG.sync.read(bytes);
  assert.equal(png.width, png.height);
  const colours = new Set<number>();
  for (let at = 0; at < png.data.length; at += 4) {
    colours.add(((png.data[at] ?? 0) << 16) | ((png.data[at + 1] ?? 0) << 8) | (png.data[at + 2] ?? 0));
  }
  const names = [...colours].map((colour) => `#${colour.toString(16).padStart(6, '0')}`).sort();
  const pad = Math.ceil(png.width / 8);
  return {
    side: png.width,
    colours: names,
    ...decode(onPaper(png.data, png.width, paper, pad), png.width + 2 * pad),
  };
}

const SVG =
  /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="(\d+)" height="(\d+)" viewBox="0 0 (\d+) (\d+)" shape-rendering="crispEdges"><rect width="(\d+)" height="(\d+)" fill="(#[0-9a-f]{6})"\/><path fill="(#[0-9a-f]{6})" d="((?:M\d+ \d+h\d+v1h-\d+z)*)"\/><\/svg>\n?$/;

/**
 * An SVG read strictly (nothing but the one shape this server writes), its modules painted four
 * pixels each in its own colours and decoded.
 */
function readSvg(text: string, margin: number) {
  const match = SVG.exec(text);
  assert.ok(match, text.slice(0, 300));
  const [width, height, total, totalHigh, side, sideHigh, bg, fg, path] = match.slice(1);
  assert.equal(width, height);
  assert.deepEqual([totalHigh, side, sideHigh], [total, total, total]);
  const modules = Number(total);
  // A QR version's side: 21, 25, 29, ... modules, inside the quiet zone asked for.
  assert.equal((modules - 2 * margin - 21) % 4, 0);
  const dark = new Uint8Array(modules * modules);
  for (const run of String(path).matchAll(/M(\d+) (\d+)h(\d+)v1h-(\d+)z/g)) {
    const [x, y, length, back] = run.slice(1).map(Number) as [number, number, number, number];
    assert.equal(length, back);
    assert.ok(x >= margin && y >= margin && y < modules - margin && x + length <= modules - margin, run[0]);
    dark.fill(1, y * modules + x, y * modules + x + length);
  }
  const scale = 4;
  const pixels = modules * scale;
  const rgba = new Uint8Array(pixels * pixels * 4);
  const colour = (name: string) => [1, 3, 5].map((at) => Number.parseInt(name.slice(at, at + 2), 16));
  const [ink, paper] = [colour(String(fg)), colour(String(bg))];
  for (let y = 0; y < pixels; y++) {
    for (let x = 0; x < pixels; x++) {
      const paint = dark[Math.floor(y / scale) * modules + Math.floor(x / scale)] ? ink : paper;
      rgba.set([...paint, 255], (y * pixels + x) * 4);
    }
  }
  return { size: Number(width), bg, fg, ...decode(rgba, pixels) };
}

/** The side a PNG gets: the multiple of the code's modules and margins nearest the size asked (docs/api.md §16). */
function sideOf(text: string, size: number, margin: number, ecc: QrEcc = 'M'): number {
  const total = qrModules(text, { ...QR_DEFAULT_LOOK, ecc, margin }).size + 2 * margin;
  return total * Math.max(1, Math.round(size / total));
}

const SCHEMES = [
  { name: 'black on white', query: '', fg: '#000000', bg: '#ffffff' },
  { name: 'dark blue on light yellow', query: 'fg=%231a237e&bg=fff9c4', fg: '#1a237e', bg: '#fff9c4' },
  { name: 'white on black (inverted)', query: 'fg=fff&bg=%23000', fg: '#ffffff', bg: '#000000' },
];

const SIZES = [64, 256, 1024];
const MARGINS = [0, 1, 4, 16];

describe('designed QR codes', () => {
  let t: TestApp;
  let code: string;
  let scanned: string;

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });
  const api = (path: string, key = t.apiKey) => get(`/api/v1${path}`, key === '' ? {} : { 'x-api-key': key });

  before(async () => {
    t = await startTestApp();
    const created = await createJson(t.app, t.apiKey, { url: 'https://example.com/qr-design' });
    assert.equal(created.status, 201);
    code = String(created.body.short_code);
    scanned = `https://sn.ip/${code}?qr=1`;
  });
  after(() => t.close());

  it('draws PNGs and SVGs that read back as the short URL with ?qr=1, over sizes, colours, margins and levels', async () => {
    // Every level with every colour scheme; sizes and margins turn so that each scheme meets each size.
    const cases = ['L', 'M', 'Q', 'H'].flatMap((ecc, level) =>
      SCHEMES.map((scheme, index) => ({ ecc, scheme, size: SIZES[(level + index) % 3] ?? 256 })),
    );
    for (const [i, { ecc, scheme, size }] of cases.entries()) {
      const margin = MARGINS[i % MARGINS.length] ?? 4;
      const query = `?size=${size}&margin=${margin}&ecc=${ecc}&${scheme.query}`;
      const label = `${ecc} ${size} px, margin ${margin}, ${scheme.name}`;
      const png = await get(`/qrcode/${code}.png${query}`);
      assert.equal(png.statusCode, 200, label);
      assert.equal(png.headers['content-type'], 'image/png');
      const colours = [scheme.fg, scheme.bg].sort();
      const { fg, bg } = scheme;
      const side = sideOf(scanned, size, margin, ecc as QrEcc);
      assert.deepEqual(readPng(png.rawPayload, bg), { side, colours, text: scanned, ink: fg }, label);
      const svg = await get(`/qrcode/${code}.svg${query}`);
      assert.equal(svg.statusCode, 200, label);
      assert.equal(svg.headers['content-type'], 'image/svg+xml');
      assert.deepEqual(readSvg(svg.body, margin), { size, fg, bg, text: scanned, ink: fg }, label);
    }
  });

  it('reads a long code drawn small with a wide margin: the image grows to a pixel a module, margin kept', () => {
    const text = `https://sn.ip/${'x'.repeat(64)}?qr=1`;
    const look = { ...QR_DEFAULT_LOOK, ecc: 'H' as const, margin: 16 };
    const modules = qrModules(text, look);
    const { side, text: read } = readPng(Buffer.from(drawPng(modules, 64, look)));
    assert.deepEqual({ side, read }, { side: modules.size + 32, read: text });
  });

  it('puts the finder patterns on the edges with margin 0, and exactly `margin` modules of quiet zone else', async () => {
    for (const [size, margin] of [
      [64, 0],
      [300, 0],
      [1024, 0],
      [256, 1],
      [500, 4],
      [1000, 16],
    ] as const) {
      const label = `${size} px, margin ${margin}`;
      const answer = await get(`/qrcode/${code}.png?size=${size}&margin=${margin}`);
      assert.equal(answer.statusCode, 200, label);
      const png = PNG.sync.read(answer.rawPayload);
      const modules = qrModules(scanned, { ...QR_DEFAULT_LOOK, margin }).size;
      const scale = png.width / (modules + 2 * margin);
      assert.ok(Number.isInteger(scale), `${label}: ${png.width} px over ${modules} modules`);
      assert.equal(png.width, sideOf(scanned, size, margin), label);
      const dark = (x: number, y: number) => png.data[(y * png.width + x) * 4] === 0;
      const quiet = margin * scale;
      const last = png.width - 1;
      // The outer corner of each finder pattern: dark, and the pixel just outside it light (or none).
      for (const [x, y, dx, dy] of [
        [quiet, quiet, -1, -1],
        [last - quiet, quiet, 1, -1],
        [quiet, last - quiet, -1, 1],
      ] as const) {
        assert.ok(dark(x, y), `${label}: the finder pattern's corner at ${x},${y}`);
        if (margin > 0) assert.ok(!dark(x + dx, y + dy), `${label}: the quiet zone at ${x + dx},${y + dy}`);
      }
      for (let y = 0; y < quiet; y++)
        for (let x = 0; x < png.width; x++) assert.ok(!dark(x, y), `${label}: ${x},${y} in the quiet zone`);
      assert.equal(decode(png.data, png.width).text, scanned, label);
    }
  });

  it('answers the default image for every value it cannot take on the image route', async () => {
    const plain = (await get(`/qrcode/${code}.png`)).rawPayload;
    const plainSvg = (await get(`/qrcode/${code}.svg`)).body;
    for (const query of [
      'size=-1',
      'size=1e9',
      'size=abc',
      'margin=-1',
      'margin=two',
      'fg=red',
      'fg=%23ggg',
      'bg=%23fff0',
      'bg=ffff',
      'ecc=X',
      'fg=%23777777&bg=%23888888',
      'fg=ffff00',
      'format=gif',
      'anything=else',
    ]) {
      const png = await get(`/qrcode/${code}.png?${query}`);
      assert.equal(png.statusCode, 200, query);
      assert.ok(png.rawPayload.equals(plain), query);
      const svg = await get(`/qrcode/${code}.svg?${query}`);
      assert.equal(svg.statusCode, 200, query);
      assert.equal(svg.body, plainSvg, query);
    }
    // Clamped, not ignored: sizes as before.
    const side = (size: number) => sideOf(scanned, size, QR_DEFAULT_LOOK.margin);
    assert.equal(readPng((await get(`/qrcode/${code}.png?size=0`)).rawPayload).side, side(64));
    assert.equal(readPng((await get(`/qrcode/${code}.png?size=99999`)).rawPayload).side, side(1024));
    assert.match((await get(`/qrcode/${code}.svg?size=0`)).body, /width="64" height="64"/);
  });

  it('caches each design as its own resource: ETag, max-age, 304; an SVG may run nothing', async () => {
    const url = `/qrcode/${code}.svg?fg=1a237e&ecc=H`;
    const first = await get(url);
    assert.match(String(first.headers['cache-control']), /max-age=\d+/);
    assert.equal(first.headers['content-security-policy'], "default-src 'none'");
    assert.doesNotMatch(first.body, /script|on\w+=|href/i);
    const etag = String(first.headers.etag);
    assert.notEqual(etag, String((await get(`/qrcode/${code}.svg`)).headers.etag));
    assert.equal((await get(url, { 'if-none-match': etag })).statusCode, 304);
  });

  it('answers 404 on the image route for an unknown code or format', async () => {
    for (const url of [
      '/qrcode/Zzzzzzz.png',
      '/qrcode/Zzzzzzz.svg?fg=000',
      `/qrcode/${code}.gif`,
      '/qrcode/x.svg',
    ]) {
      assert.equal((await get(url)).statusCode, 404, url);
    }
  });

  it('answers the same image on the API, PNG or SVG, for the link of the workspace', async () => {
    const design = 'size=512&margin=2&fg=%231a237e&bg=fff9c4&ecc=Q';
    const png = await api(`/links/${code}/qr?${design}`);
    assert.equal(png.statusCode, 200);
    assert.equal(png.headers['content-type'], 'image/png');
    assert.ok(png.rawPayload.equals((await get(`/qrcode/${code}.png?${design}`)).rawPayload));
    assert.equal(readPng(png.rawPayload).text, scanned);
    const svg = await api(`/links/${code}/qr?format=svg&${design}`);
    assert.equal(svg.statusCode, 200);
    assert.equal(svg.headers['content-type'], 'image/svg+xml');
    assert.equal(svg.body, (await get(`/qrcode/${code}.svg?${design}`)).body);
    const { text, fg, bg } = readSvg(svg.body, 2);
    assert.deepEqual({ text, fg, bg }, { text: scanned, fg: '#1a237e', bg: '#fff9c4' });
    const plain = await api(`/links/${code}/qr`);
    assert.ok(plain.rawPayload.equals((await get(`/qrcode/${code}.png`)).rawPayload));
    assert.equal((await api(`/links/${code}/qr?domain=sn.ip&format=svg`)).statusCode, 200);
  });

  it('refuses every value the API cannot take with 300', async () => {
    for (const query of [
      'size=0',
      'size=-1',
      'size=1e9',
      'size=63',
      'size=1025',
      'size=abc',
      'size=256&size=512',
      'margin=-1',
      'margin=17',
      'fg=red',
      'fg=%23ggg',
      'fg=%23fff0',
      'bg=%23ffffff00',
      'bg=ggg',
      'ecc=X',
      'ecc=h',
      'format=gif',
      'format=jpeg',
      'fg=%23777777&bg=%23888888',
      'fg=ffff00',
      'bg=000',
      'unknown=1',
    ]) {
      const answer = await callApi(t.app, 'GET', `/links/${code}/qr?${query}`, { key: t.apiKey });
      assertProblem(answer, 400, '300');
    }
  });

  it("answers 314 for an unknown code or another workspace's link, 317 for a domain it does not see, 315 without links:read", async () => {
    assertProblem(await callApi(t.app, 'GET', '/links/Zzzzzzz/qr', { key: t.apiKey }), 404, '314');
    const other = (await t.ops.createAccount('qr-other@example.com', 'tester')).apiKey;
    assertProblem(await callApi(t.app, 'GET', `/links/${code}/qr`, { key: other }), 404, '314');
    const elsewhere = await callApi(t.app, 'GET', `/links/${code}/qr?domain=unknown.example`, {
      key: t.apiKey,
    });
    assertProblem(elsewhere, 400, '317');
    const creator = await keyWithScopes(t.store, t.email, ['links:create']);
    assertProblem(await callApi(t.app, 'GET', `/links/${code}/qr`, { key: creator }), 403, '315');
    assertProblem(await callApi(t.app, 'GET', `/links/${code}/qr`), 401, '301');
    const posted = await callApi(t.app, 'POST', `/links/${code}/qr`, { key: t.apiKey, body: {} });
    assert.equal(posted.status, 405);
  });
});

describe('renders of new designs, bounded per workspace', () => {
  /** A render that ends when the test says so; whether it began. */
  function held() {
    let end = (): void => {};
    const render = {
      began: false,
      done: new Promise<void>((resolve) => {
        end = resolve;
      }),
      end: () => end(),
      run: async () => {
        render.began = true;
        await render.done;
        return 'drawn';
      },
    };
    return render;
  }
  const settle = async () => {
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  };

  it('draws N at once for a workspace, queues the next, refuses past the queue; another workspace goes on', async () => {
    const renders = new WorkspaceRenders({ drawing: 2, waiting: 1 });
    const [a, b, c] = [held(), held(), held()];
    const first = [renders.run(1, a.run), renders.run(1, b.run)];
    const queued = renders.run(1, c.run);
    const refused = renders.run(1, held().run).then(
      () => 'drawn',
      (error: unknown) => (error instanceof UnavailableError ? error.retryAfterSeconds : 'failed'),
    );
    await settle();
    assert.deepEqual([a.began, b.began, c.began], [true, true, false], 'N draw, the next waits');
    assert.equal(await refused, 1, 'past the queue: 503 with Retry-After 1');
    const other = held();
    const elsewhere = renders.run(2, other.run);
    await settle();
    assert.ok(other.began, 'another workspace is not held up');
    other.end();
    assert.equal(await elsewhere, 'drawn');
    a.end();
    assert.equal(await first[0], 'drawn');
    await settle();
    assert.ok(c.began, 'the one waiting takes the place of the one that ended');
    b.end();
    c.end();
    assert.deepEqual(await Promise.all([first[1], queued]), ['drawn', 'drawn']);
  });

  it('gives the place back when a render fails', async () => {
    const renders = new WorkspaceRenders({ drawing: 1, waiting: 0 });
    await assert.rejects(renders.run(1, async () => Promise.reject(new Error('thread stopped'))));
    assert.equal(await renders.run(1, async () => 'drawn'), 'drawn');
  });
});
