import type { ChallengeAnswers } from '@herald/shared';
import { AppError } from '@herald/shared';
import type { CaptchaPurpose, CaptchaService } from '../captcha/captcha.service.ts';
import type { SliderService } from '../captcha/slider.service.ts';

/**
 * The checks that a public form was filled in by a person: a slider pass token spent once and,
 * where the form asks for one, an image code. A missing image code is CAPTCHA_REQUIRED (the
 * console then shows the image), a wrong one CAPTCHA_INVALID.
 */
export class HumanCheck {
  private readonly slider: SliderService;
  private readonly captcha: CaptchaService;

  constructor(slider: SliderService, captcha: CaptchaService) {
    this.slider = slider;
    this.captcha = captcha;
  }

  async require(
    answers: ChallengeAnswers,
    needs: { slider: boolean; captcha?: CaptchaPurpose },
  ): Promise<void> {
    if (needs.captcha) {
      if (!answers.captchaId || !answers.captchaCode) throw new AppError('CAPTCHA_REQUIRED');
      await this.captcha.requireValid(answers.captchaId, answers.captchaCode, needs.captcha);
    }
    if (needs.slider) await this.slider.requirePass(answers.sliderToken);
  }
}
