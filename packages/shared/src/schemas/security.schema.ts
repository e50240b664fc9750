import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';

/** Bodies of the captcha and slider calls, used by the server's routes and the console. */
const rule = (key: ValidationKey) => ({ message: key });

export const captchaCheckSchema = z.object({
  captchaId: z.string(rule('required')).min(1, rule('required')).max(64, rule('lengthExceeded')),
  code: z.string(rule('required')).trim().min(1, rule('required')).max(16, rule('lengthExceeded')),
});

/** x and durationMs arrive as numbers (JSON) or strings (form posts). */
export const sliderVerifySchema = z.object({
  challengeId: z.string(rule('required')).min(1, rule('required')).max(64, rule('lengthExceeded')),
  x: z.coerce.number(rule('invalid')),
  durationMs: z.coerce.number(rule('invalid')).nonnegative(rule('invalid')),
});

export interface ChallengeAnswers {
  sliderToken?: string;
  captchaId?: string;
  captchaCode?: string;
}

export interface SliderChallenge {
  challengeId: string;
  /** data:image/svg+xml;base64 of the 300×150 picture with the notch. */
  background: string;
  /** data:image/svg+xml;base64 of the piece, to be drawn at top `pieceY`, left at the slider's offset. */
  piece: string;
  pieceY: number;
  width: number;
  height: number;
  pieceWidth: number;
  pieceHeight: number;
}

/** An image code: its id, to send back with the answer, and the picture as a data URL. */
export interface ImageCode {
  captchaId: string;
  image: string;
}
