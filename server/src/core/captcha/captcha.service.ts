import { randomInt } from 'node:crypto';
import { AppError } from '@herald/shared';
import svgCaptcha from 'svg-captcha';
import type { Database } from '../../db/database.ts';
import { hashSecret, randomId, sameHash } from '../../lib/secret-hash.ts';
import * as repo from './captcha.repo.ts';

/** The console's image-code screens (console-spec §7); a captcha answers only its own purpose. */
export const CAPTCHA_PURPOSES = [
  'oauth',
  'register',
  'password',
  'loginVerify',
  'feedback',
  'ai',
  'wechatBeforeLoginBind',
  'resendRegMail',
  'subInvite',
] as const;
export type CaptchaPurpose = (typeof CAPTCHA_PURPOSES)[number];

export const CAPTCHA_TTL_MS = 5 * 60_000;
export const CAPTCHA_LENGTH = 4;
/** Letters and digits without the look-alikes 0/O/o, 1/I/i/l; answers are case-insensitive. */
export const CAPTCHA_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz';
const MAX_ANSWER_LENGTH = 16;

/**
 * svg-captcha draws each character as a glyph path (no <text> a bot could read) among noise
 * curves. Its own random text uses Math.random, so the text is drawn from node:crypto here and
 * handed to its renderer, which the package exports as its default function (untyped there).
 */
type RenderCaptcha = (
  text: string,
  options: { width: number; height: number; fontSize: number; noise: number; background: string },
) => string;
const renderCaptcha = svgCaptcha as unknown as RenderCaptcha;

export function randomCaptchaText(length = CAPTCHA_LENGTH): string {
  let text = '';
  for (let i = 0; i < length; i++) text += CAPTCHA_ALPHABET[randomInt(CAPTCHA_ALPHABET.length)];
  return text;
}

const normalize = (answer: string) => answer.trim().toLowerCase();

/**
 * Image captchas. The answer is stored only as a hash salted with the captcha's id; each captcha
 * is good for one try within five minutes, so a wrong guess burns it and the next needs a new image.
 */
export class CaptchaService {
  private readonly database: Database;
  private readonly now: () => number;
  private readonly randomText: () => string;

  /** `now` and `randomText` are seams for tests (a clock, a known answer). */
  constructor(database: Database, options: { now?: () => number; randomText?: () => string } = {}) {
    this.database = database;
    this.now = options.now ?? Date.now;
    this.randomText = options.randomText ?? randomCaptchaText;
  }

  async create(purpose: CaptchaPurpose): Promise<{ captchaId: string; svg: string }> {
    const text = this.randomText();
    const captchaId = randomId();
    const now = this.now();
    await repo.insertCaptcha(
      this.database,
      {
        id: captchaId,
        purpose,
        answerHash: hashSecret(captchaId, normalize(text)),
        expiresAt: now + CAPTCHA_TTL_MS,
      },
      now,
    );
    const svg = renderCaptcha(text, {
      width: 120,
      height: 40,
      fontSize: 44,
      noise: 3,
      background: '#f3f5f9',
    });
    return { captchaId, svg };
  }

  /** True once for the right answer to a live captcha of this purpose; any try uses it up. */
  async verify(captchaId: unknown, answer: unknown, purpose: CaptchaPurpose): Promise<boolean> {
    if (typeof captchaId !== 'string' || typeof answer !== 'string') return false;
    if (captchaId.length === 0 || captchaId.length > 64) return false;
    const row = await repo.findCaptcha(this.database, captchaId);
    if (!row) return false;
    if (!(await repo.useCaptcha(this.database, captchaId, this.now()))) return false;
    const given = hashSecret(captchaId, normalize(answer.slice(0, MAX_ANSWER_LENGTH)));
    const matches = sameHash(row.answer_hash, given);
    return matches && row.purpose === purpose;
  }

  /** As verify, for flows that go on only with a solved captcha: CAPTCHA_INVALID otherwise. */
  async requireValid(captchaId: unknown, answer: unknown, purpose: CaptchaPurpose): Promise<void> {
    if (!(await this.verify(captchaId, answer, purpose))) throw new AppError('CAPTCHA_INVALID');
  }

  /** Deletes captchas that expired more than an hour ago. */
  prune(): Promise<number> {
    return repo.deleteExpiredCaptchas(this.database, this.now() - 3600_000);
  }
}
