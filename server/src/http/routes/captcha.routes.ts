import { type ImageCode, PUBLIC } from '@herald/shared';
import { captchaCheckSchema, sliderVerifySchema } from '@herald/shared/schemas/security.schema';
import type { FastifyInstance } from 'fastify';
import type { Core } from '../../compose.ts';
import type { CaptchaPurpose } from '../../core/captcha/captcha.service.ts';
import { svgDataUrl } from '../../lib/secret-hash.ts';
import type { RouteRateLimit } from '../plugins/rate-limit.ts';

/** The console's image-code paths (console-spec §7, "Other"), each with the purpose it serves. */
export const IMAGE_CODE_ROUTES: readonly (readonly [string, CaptchaPurpose])[] = [
  ['/v3/oauth/imageCode', 'oauth'],
  ['/v3/access/register/imageCode', 'register'],
  ['/v3/access/password/imageCode', 'password'],
  ['/v3/user/loginVerify/imageCode', 'loginVerify'],
  ['/v3/access/feedback/imageCode', 'feedback'],
  ['/v3/access/ai/imageCode', 'ai'],
  ['/v3/access/wechat/beforeLoginBind/imageCode', 'wechatBeforeLoginBind'],
  ['/v3/access/register/resendRegMail/imageCode', 'resendRegMail'],
  ['/v3/access/subInvite/imageCode', 'subInvite'],
];

const PER_MINUTE = 60_000;
const IMAGES: RouteRateLimit = { bucket: 'captcha.image', limit: 30, windowMs: PER_MINUTE };
const CHECKS: RouteRateLimit = { bucket: 'captcha.check', limit: 30, windowMs: PER_MINUTE };
const SLIDERS: RouteRateLimit = { bucket: 'captcha.slider', limit: 30, windowMs: PER_MINUTE };
const DROPS: RouteRateLimit = { bucket: 'captcha.slider-verify', limit: 30, windowMs: PER_MINUTE };

/**
 * Image captchas and the slider challenge, all public and rate-limited per IP. Images are never
 * cached: each GET is a new captcha. The console draws the image, the slider picture and piece.
 */
export function captchaRoutes(app: FastifyInstance, core: Core): void {
  for (const [url, purpose] of IMAGE_CODE_ROUTES) {
    app.get(url, { config: { access: PUBLIC, rateLimit: IMAGES } }, async (_request, reply) => {
      const { captchaId, svg } = await core.captcha.create(purpose);
      reply.header('cache-control', 'no-store');
      return { data: { captchaId, image: svgDataUrl(svg) } satisfies ImageCode };
    });
  }

  app.post(
    '/v3/user/loginVerify/imageCode/check',
    { config: { access: PUBLIC, rateLimit: CHECKS } },
    async (request) => {
      const { captchaId, code } = captchaCheckSchema.parse(request.body);
      await core.captcha.requireValid(captchaId, code, 'loginVerify');
      return { data: { valid: true } };
    },
  );

  app.get('/v3/oauth/slider', { config: { access: PUBLIC, rateLimit: SLIDERS } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { data: await core.slider.create() };
  });

  app.post('/v3/oauth/slider/verify', { config: { access: PUBLIC, rateLimit: DROPS } }, async (request) => {
    const { challengeId, x, durationMs } = sliderVerifySchema.parse(request.body);
    return { data: await core.slider.verify(challengeId, x, durationMs) };
  });
}
