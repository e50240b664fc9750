import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CAPTCHA_ALPHABET,
  CAPTCHA_PURPOSES,
  CaptchaService,
  randomCaptchaText,
} from '../../src/core/captcha/captcha.service.ts';
import { IMAGE_CODE_ROUTES } from '../../src/http/routes/captcha.routes.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { awayFromWindowEnd } from '../helpers/wait.ts';

describe('image captcha', () => {
  let t: TestApp;
  let clock = Date.now();
  let known: CaptchaService;
  before(async () => {
    t = await buildTestApp();
    known = new CaptchaService(t.core.database, { now: () => clock, randomText: () => 'Ab3d' });
  });
  after(() => t.close());

  let ip = 0;
  /** Each test calls from its own address, so the per-IP limits of one do not touch another. */
  const nextIp = () => `198.51.100.${++ip}`;

  it('draws 4-character codes without look-alike characters', () => {
    for (const ambiguous of ['0', 'O', 'o', '1', 'I', 'i', 'l'])
      assert.ok(!CAPTCHA_ALPHABET.includes(ambiguous));
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const text = randomCaptchaText();
      assert.match(text, /^[2-9A-HJ-NP-Za-hj-km-np-z]{4}$/);
      seen.add(text);
    }
    assert.ok(seen.size > 190, 'codes are random');
  });

  it('renders an SVG of glyph paths with noise, and keeps only a hash of the answer', async () => {
    const { captchaId, svg } = await known.create('oauth');
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.ok((svg.match(/<path /g) ?? []).length >= 4 + 3, 'four glyphs and noise lines');
    assert.ok(!/<text/.test(svg), 'no readable text element');
    const row = await t.core.database.db
      .selectFrom('captchas')
      .selectAll()
      .where('id', '=', captchaId)
      .executeTakeFirstOrThrow();
    assert.equal(row.purpose, 'oauth');
    assert.match(row.answer_hash, /^[0-9a-f]{64}$/);
    assert.ok(!row.answer_hash.toLowerCase().includes('ab3d'));
    assert.equal(row.expires_at - row.created_at, 5 * 60_000);
    assert.equal(row.used_at, null);
  });

  it('accepts the answer once, in any case and with surrounding spaces', async () => {
    const { captchaId } = await known.create('register');
    assert.equal(await known.verify(captchaId, ' aB3D ', 'register'), true);
    assert.equal(await known.verify(captchaId, 'Ab3d', 'register'), false, 'single use');
  });

  it('burns the captcha on a wrong answer', async () => {
    const { captchaId } = await known.create('register');
    assert.equal(await known.verify(captchaId, 'zzzz', 'register'), false);
    assert.equal(await known.verify(captchaId, 'Ab3d', 'register'), false);
  });

  it('answers only the purpose it was made for', async () => {
    const { captchaId } = await known.create('password');
    assert.equal(await known.verify(captchaId, 'Ab3d', 'register'), false);
    assert.equal(await known.verify(captchaId, 'Ab3d', 'password'), false, 'and the try used it');
  });

  it('expires after five minutes', async () => {
    const { captchaId } = await known.create('oauth');
    clock += 5 * 60_000 + 1;
    assert.equal(await known.verify(captchaId, 'Ab3d', 'oauth'), false);
    clock = Date.now();
  });

  it('refuses unknown ids and answers that are not strings', async () => {
    const { captchaId } = await known.create('oauth');
    assert.equal(await known.verify('nope', 'Ab3d', 'oauth'), false);
    assert.equal(await known.verify(captchaId, 1234, 'oauth'), false);
    assert.equal(await known.verify(undefined, 'Ab3d', 'oauth'), false);
    assert.equal(await known.verify('x'.repeat(65), 'Ab3d', 'oauth'), false);
    await assert.rejects(known.requireValid(captchaId, 'Ab3d', 'ai'), { code: 'CAPTCHA_INVALID' });
  });

  it('serves a new, uncached captcha on every image-code path, each with its purpose', async () => {
    assert.equal(IMAGE_CODE_ROUTES.length, 9);
    assert.deepEqual(
      [...new Set(IMAGE_CODE_ROUTES.map(([, purpose]) => purpose))].sort(),
      [...CAPTCHA_PURPOSES].sort(),
    );
    for (const [url, purpose] of IMAGE_CODE_ROUTES) {
      assert.match(url, /^\/v3\/.*imageCode$/);
      const res = await t.app.inject({ method: 'GET', url, remoteAddress: nextIp() });
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      assert.equal(res.headers['cache-control'], 'no-store');
      const { captchaId, image } = res.json().data;
      assert.match(captchaId, /^[\w-]{22}$/);
      assert.match(image, /^data:image\/svg\+xml;base64,/);
      const svg = Buffer.from(image.split(',')[1], 'base64').toString('utf8');
      assert.match(svg, /^<svg .*<\/svg>$/s);
      const row = await t.core.database.db
        .selectFrom('captchas')
        .select('purpose')
        .where('id', '=', captchaId)
        .executeTakeFirstOrThrow();
      assert.equal(row.purpose, purpose, url);
    }
    const access = t.routes.filter((r) => r.url.endsWith('imageCode') && r.method === 'GET');
    assert.equal(access.length, 9);
    assert.ok(access.every((r) => r.access === 'public'));
  });

  const check = (body: Record<string, string>, lang = 'zh-cn', form = false) =>
    t.app.inject({
      method: 'POST',
      url: '/v3/user/loginVerify/imageCode/check',
      remoteAddress: nextIp(),
      headers: form ? { lang, 'content-type': 'application/x-www-form-urlencoded' } : { lang },
      payload: form ? new URLSearchParams(body).toString() : body,
    });

  it('checks a login-verify image code over HTTP: 200 once, then 400 CAPTCHA_INVALID in both languages', async () => {
    const { captchaId } = await known.create('loginVerify');
    const ok = await check({ captchaId, code: 'AB3D' }, 'en', true);
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual(ok.json(), { data: { valid: true } });

    const again = await check({ captchaId, code: 'AB3D' }, 'en');
    assert.equal(again.statusCode, 400);
    assert.equal(again.json().code, 'CAPTCHA_INVALID');
    assert.equal(
      again.json().message,
      'The image code is incorrect or has expired, please refresh it and try again',
    );

    const { captchaId: other } = await known.create('loginVerify');
    const zh = await check({ captchaId: other, code: 'wxyz' });
    assert.equal(zh.statusCode, 400);
    assert.equal(zh.json().message, '图形验证码错误或已失效，请刷新后重试');
  });

  it('refuses an image code made for another screen at the login-verify check', async () => {
    const { captchaId } = await known.create('oauth');
    const res = await check({ captchaId, code: 'Ab3d' }, 'en');
    assert.equal(res.json().code, 'CAPTCHA_INVALID');
  });

  it('answers 400 with field errors when the check lacks its fields', async () => {
    const res = await check({ captchaId: '' }, 'en');
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 'COMMON_VALIDATION_FAILED');
    const fields = Object.fromEntries(
      (res.json().fields as { field: string; message: string }[]).map((f) => [f.field, f.message]),
    );
    assert.deepEqual(fields, { captchaId: 'This field is required', code: 'This field is required' });
    const zh = await check({}, 'zh-cn');
    assert.equal(zh.json().fields[0].message, '此项为必填项');
  });

  it('limits image codes to 30 a minute per IP: 429 with retry-after, in both languages', async () => {
    await awayFromWindowEnd(60_000);
    const address = nextIp();
    const get = (lang: string) =>
      t.app.inject({ method: 'GET', url: '/v3/oauth/imageCode', remoteAddress: address, headers: { lang } });
    for (let i = 0; i < 30; i++) assert.equal((await get('en')).statusCode, 200, `request ${i + 1}`);
    const limited = await get('en');
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.json().code, 'COMMON_RATE_LIMITED');
    assert.equal(limited.json().message, 'Too many requests, please try again later');
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `retry-after ${retryAfter}`);
    assert.equal((await get('zh-cn')).json().message, '请求过于频繁，请稍后再试');
    // The allowance is shared by every image-code path, and another address has its own.
    const other = await t.app.inject({
      method: 'GET',
      url: '/v3/access/register/imageCode',
      remoteAddress: address,
    });
    assert.equal(other.statusCode, 429);
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: '/v3/oauth/imageCode',
      remoteAddress: nextIp(),
    });
    assert.equal(elsewhere.statusCode, 200);
  });

  it('prunes captchas an hour after they expired', async () => {
    const pruning = new CaptchaService(t.core.database, { now: () => Date.now() + 66 * 60_000 });
    const { captchaId } = await known.create('feedback');
    assert.ok((await pruning.prune()) >= 1);
    const row = await t.core.database.db
      .selectFrom('captchas')
      .select('id')
      .where('id', '=', captchaId)
      .executeTakeFirst();
    assert.equal(row, undefined);
  });
});
