import type { Core } from '../../src/compose.ts';
import { type CaptchaPurpose, CaptchaService } from '../../src/core/captcha/captcha.service.ts';

/**
 * Answers to the human checks, as a person at the console would give them: the slider dropped at
 * its notch (its position read from the database, as only a test can) and an image code whose
 * answer the test chose.
 */
export async function passSlider(core: Core): Promise<string> {
  const challenge = await core.slider.create();
  const { x } = await core.database.db
    .selectFrom('slider_challenges')
    .select('x')
    .where('id', '=', challenge.challengeId)
    .executeTakeFirstOrThrow();
  const { passToken } = await core.slider.verify(challenge.challengeId, x, 650);
  return passToken;
}

export async function solvedCaptcha(
  core: Core,
  purpose: CaptchaPurpose,
): Promise<{ captchaId: string; captchaCode: string }> {
  const { captchaId } = await new CaptchaService(core.database, { randomText: () => 'Hk7p' }).create(purpose);
  return { captchaId, captchaCode: 'hk7p' };
}

export async function humanAnswers(core: Core, purpose: CaptchaPurpose): Promise<Record<string, string>> {
  return { sliderToken: await passSlider(core), ...(await solvedCaptcha(core, purpose)) };
}
