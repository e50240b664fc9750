import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

// CI copies the build aside (HERALD_CONSOLE_DIR) for suites that run while `npm test` rebuilds it.
const dist = path.resolve(
  process.env.HERALD_CONSOLE_DIR ?? path.join(import.meta.dirname, '..', '..', '..', 'console', 'dist'),
);

/**
 * The built console as a browser fetches it (`npm test` builds it before these tests run): each
 * hashed script comes compressed the way the browser asks (brotli, else gzip, else plain), byte
 * for byte the built file once decoded, with a year-long immutable cache; the page itself is not
 * cached that way, so a new build reaches everyone.
 */
describe('console assets', () => {
  let t: TestApp;
  let script: string;

  before(async () => {
    assert.ok(fs.existsSync(path.join(dist, 'index.html')), 'console/dist is missing: run `npm run build`');
    t = await buildTestApp();
    const page = await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    const src = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
    assert.ok(src, 'index.html names its entry script');
    script = src;
  });
  after(() => t?.close());

  const raw = () => fs.readFileSync(path.join(dist, script));

  it('sends brotli to a browser that accepts it, gzip to one that takes only gzip', async () => {
    const br = await t.app.inject({
      method: 'GET',
      url: script,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    assert.equal(br.statusCode, 200);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.match(String(br.headers['content-type']), /javascript/);
    assert.match(String(br.headers.vary), /accept-encoding/i);
    assert.deepEqual(brotliDecompressSync(br.rawPayload), raw());
    assert.ok(br.rawPayload.length < raw().length * 0.4, `${br.rawPayload.length} of ${raw().length} bytes`);

    const gz = await t.app.inject({ method: 'GET', url: script, headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.deepEqual(gunzipSync(gz.rawPayload), raw());

    const plain = await t.app.inject({
      method: 'GET',
      url: script,
      headers: { 'accept-encoding': 'identity' },
    });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.deepEqual(plain.rawPayload, raw());
  });

  it('caches hashed assets for a year and never the page', async () => {
    const asset = await t.app.inject({ method: 'GET', url: script, headers: { 'accept-encoding': 'br' } });
    assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
    const page = await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    assert.equal(page.headers['cache-control'], 'no-cache');
    const deep = await t.app.inject({
      method: 'GET',
      url: '/sendSetting/apiUser',
      headers: { accept: 'text/html' },
    });
    assert.equal(deep.headers['cache-control'], 'no-cache');
  });
});
