import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findChallenge } from '../../src/core/captcha/slider.repo.ts';
import { SLIDER_PASS_TTL_MS, SliderService } from '../../src/core/captcha/slider.service.ts';
import { piecePath } from '../../src/core/captcha/slider-image.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { awayFromWindowEnd } from '../helpers/wait.ts';

describe('slider challenge', () => {
  let t: TestApp;
  let clock = Date.now();
  let slider: SliderService;
  before(async () => {
    t = await buildTestApp();
    slider = new SliderService(t.core.database, { now: () => clock });
  });
  after(() => t.close());

  let ip = 0;
  const nextIp = () => `203.0.113.${++ip}`;
  const secretX = async (challengeId: string) => (await findChallenge(t.core.database, challengeId))!.x;
  const svgOf = (dataUrl: string) => {
    assert.match(dataUrl, /^data:image\/svg\+xml;base64,/);
    return Buffer.from(dataUrl.split(',')[1] ?? '', 'base64').toString('utf8');
  };

  it('gives a 300-wide picture with a notch, a piece and its y, but not the notch x', async () => {
    const challenge = await slider.create();
    const x = await secretX(challenge.challengeId);
    assert.ok(x >= 70 && x <= 300 - 48 - 10, `x ${x}`);
    assert.ok(challenge.pieceY >= 10 && challenge.pieceY + challenge.pieceHeight <= 150 - 10);
    assert.equal(challenge.width, 300);
    const background = svgOf(challenge.background);
    assert.match(background, /^<svg [^>]*width="300" height="150"/);
    assert.match(background, new RegExp(`<path d="M${x},`), 'the notch is drawn at x');
    const piece = svgOf(challenge.piece);
    assert.match(piece, /width="48" height="50"/);
    assert.ok(
      piece.includes(`<path d="${piecePath(0, 0)}"`),
      'the piece is drawn at the origin: it carries no x',
    );
    assert.ok(!JSON.stringify({ ...challenge, background: '', piece: '' }).includes(`"x"`));
  });

  it('accepts a drop within 4 px after a human-looking drag, and spends the challenge', async () => {
    for (const offset of [-4, 0, 4]) {
      const { challengeId } = await slider.create();
      const x = await secretX(challengeId);
      const { passToken } = await slider.verify(challengeId, x + offset, 900);
      assert.match(passToken, /^[\w-]{22}$/);
      await assert.rejects(slider.verify(challengeId, x, 900), { code: 'SLIDER_FAILED' }, 'single use');
    }
  });

  it('refuses a drop 5 px off, too fast a drag, and bad input; each spends the challenge', async () => {
    const attempts: [number, unknown][] = [
      [5, 900],
      [-5, 900],
      [0, 299],
      [0, -1],
      [0, 'slow'],
    ];
    for (const [offset, duration] of attempts) {
      const { challengeId } = await slider.create();
      const x = await secretX(challengeId);
      await assert.rejects(slider.verify(challengeId, x + offset, duration), { code: 'SLIDER_FAILED' });
      await assert.rejects(slider.verify(challengeId, x, 900), { code: 'SLIDER_FAILED' });
    }
    await assert.rejects(slider.verify('unknown', 100, 900), { code: 'SLIDER_FAILED' });
    await assert.rejects(slider.verify(42, 100, 900), { code: 'SLIDER_FAILED' });
    const { challengeId } = await slider.create();
    await assert.rejects(slider.verify(challengeId, Number.NaN, 900), { code: 'SLIDER_FAILED' });
  });

  it('expires an unsolved challenge after five minutes', async () => {
    const { challengeId } = await slider.create();
    const x = await secretX(challengeId);
    clock += 5 * 60_000 + 1;
    await assert.rejects(slider.verify(challengeId, x, 900), { code: 'SLIDER_FAILED' });
    clock = Date.now();
  });

  it('lets the pass token be spent once, within two minutes', async () => {
    const solve = async () => {
      const { challengeId } = await slider.create();
      return (await slider.verify(challengeId, await secretX(challengeId), 800)).passToken;
    };
    const token = await solve();
    assert.equal(await slider.consumePass(token), true);
    assert.equal(await slider.consumePass(token), false);
    await assert.rejects(slider.requirePass(token), { code: 'SLIDER_REQUIRED' });
    await assert.rejects(slider.requirePass(undefined), { code: 'SLIDER_REQUIRED' });
    assert.equal(await slider.consumePass('forged-token'), false);

    const late = await solve();
    clock += SLIDER_PASS_TTL_MS + 1;
    assert.equal(await slider.consumePass(late), false);
    clock = Date.now();

    const fresh = await solve();
    await slider.requirePass(fresh);
  });

  it('serves challenges and checks drops over HTTP, with errors in both languages', async () => {
    const address = nextIp();
    const res = await t.app.inject({ method: 'GET', url: '/v3/oauth/slider', remoteAddress: address });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['cache-control'], 'no-store');
    const { challengeId, background, piece, pieceY } = res.json().data;
    svgOf(background);
    svgOf(piece);
    assert.equal(typeof pieceY, 'number');
    const x = await secretX(challengeId);

    const drop = (body: Record<string, string | number>, lang = 'en') =>
      t.app.inject({
        method: 'POST',
        url: '/v3/oauth/slider/verify',
        remoteAddress: address,
        headers: { lang },
        payload: body,
      });
    const ok = await drop({ challengeId, x: x + 2, durationMs: 1200 });
    assert.equal(ok.statusCode, 200, ok.body);
    const { passToken } = ok.json().data;
    assert.equal(await t.core.slider.consumePass(passToken), true);

    const replay = await drop({ challengeId, x, durationMs: 1200 });
    assert.equal(replay.statusCode, 400);
    assert.equal(replay.json().code, 'SLIDER_FAILED');
    assert.equal(replay.json().message, 'Verification failed, please try again');
    assert.equal(
      (await drop({ challengeId, x, durationMs: 1200 }, 'zh-cn')).json().message,
      '验证失败，请重新验证',
    );

    const form = await t.app.inject({
      method: 'POST',
      url: '/v3/oauth/slider/verify',
      remoteAddress: address,
      headers: { 'content-type': 'application/x-www-form-urlencoded', lang: 'en' },
      payload: 'challengeId=abc&x=oops&durationMs=500',
    });
    assert.equal(form.statusCode, 400);
    assert.equal(form.json().code, 'COMMON_VALIDATION_FAILED');
    assert.equal(form.json().fields[0].field, 'x');

    const routes = t.routes.filter((r) => r.url.startsWith('/v3/oauth/slider'));
    assert.deepEqual(routes.map((r) => [r.method, r.url, r.access]).sort(), [
      ['GET', '/v3/oauth/slider', 'public'],
      ['HEAD', '/v3/oauth/slider', 'public'],
      ['POST', '/v3/oauth/slider/verify', 'public'],
    ]);
  });

  it('limits slider challenges to 30 a minute per IP', async () => {
    await awayFromWindowEnd(60_000);
    const address = nextIp();
    for (let i = 0; i < 30; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/v3/oauth/slider', remoteAddress: address });
      assert.equal(res.statusCode, 200);
    }
    const limited = await t.app.inject({ method: 'GET', url: '/v3/oauth/slider', remoteAddress: address });
    assert.equal(limited.statusCode, 429);
    assert.ok(Number(limited.headers['retry-after']) >= 1);
  });
});
