import { randomInt } from 'node:crypto';
import type { SliderChallenge } from '@herald/shared';
import { AppError } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import { hashSecret, randomId, svgDataUrl } from '../../lib/secret-hash.ts';
import * as repo from './slider.repo.ts';
import { drawSlider, PIECE_HEIGHT, PIECE_WIDTH, SLIDER_HEIGHT, SLIDER_WIDTH } from './slider-image.ts';

export const SLIDER_TTL_MS = 5 * 60_000;
/** How long a solved slider's pass token may be presented to login or register. */
export const SLIDER_PASS_TTL_MS = 2 * 60_000;
/** How far from the notch a drop may land, in pixels of the 300-wide picture. */
export const SLIDER_TOLERANCE_PX = 4;
/** Faster than this is a script, not a hand on a mouse. */
export const SLIDER_MIN_DURATION_MS = 300;
/** The notch keeps clear of the piece's starting place at the left edge. */
const MIN_X = 70;

const PASS_SALT = 'slider-pass';

/**
 * The slider challenge of login and register (console-spec §5). The notch's x stays in the
 * database; the browser gets the picture, the piece and its y. A drop within a few pixels after a
 * human-looking drag earns a one-time pass token that the login or register call then spends, so a
 * solved challenge cannot be replayed. Each challenge allows one drop.
 */
export class SliderService {
  private readonly database: Database;
  private readonly now: () => number;

  constructor(database: Database, options: { now?: () => number } = {}) {
    this.database = database;
    this.now = options.now ?? Date.now;
  }

  async create(): Promise<SliderChallenge> {
    const x = randomInt(MIN_X, SLIDER_WIDTH - PIECE_WIDTH - 10 + 1);
    const y = randomInt(10, SLIDER_HEIGHT - PIECE_HEIGHT - 10 + 1);
    const challengeId = randomId();
    const now = this.now();
    await repo.insertChallenge(this.database, { id: challengeId, x, expiresAt: now + SLIDER_TTL_MS }, now);
    const { background, piece } = drawSlider(x, y);
    return {
      challengeId,
      background: svgDataUrl(background),
      piece: svgDataUrl(piece),
      pieceY: y,
      width: SLIDER_WIDTH,
      height: SLIDER_HEIGHT,
      pieceWidth: PIECE_WIDTH,
      pieceHeight: PIECE_HEIGHT,
    };
  }

  /** The pass token for a good drop; SLIDER_FAILED for anything else (and the challenge is spent). */
  async verify(challengeId: unknown, x: unknown, durationMs: unknown): Promise<{ passToken: string }> {
    if (typeof challengeId !== 'string' || challengeId.length === 0 || challengeId.length > 64) {
      throw new AppError('SLIDER_FAILED');
    }
    const row = await repo.findChallenge(this.database, challengeId);
    const now = this.now();
    if (!row || !(await repo.useChallenge(this.database, challengeId, now))) {
      throw new AppError('SLIDER_FAILED');
    }
    const onTarget =
      typeof x === 'number' && Number.isFinite(x) && Math.abs(x - row.x) <= SLIDER_TOLERANCE_PX;
    const human =
      typeof durationMs === 'number' && durationMs >= SLIDER_MIN_DURATION_MS && durationMs <= SLIDER_TTL_MS;
    if (!onTarget || !human) throw new AppError('SLIDER_FAILED');
    const passToken = randomId();
    await repo.setPass(this.database, challengeId, {
      hash: hashSecret(PASS_SALT, passToken),
      expiresAt: now + SLIDER_PASS_TTL_MS,
    });
    return { passToken };
  }

  /** True once for a pass token from verify() that has not expired. */
  async consumePass(passToken: unknown): Promise<boolean> {
    if (typeof passToken !== 'string' || passToken.length === 0 || passToken.length > 64) return false;
    return repo.usePass(this.database, hashSecret(PASS_SALT, passToken), this.now());
  }

  /** As consumePass, for login and register: SLIDER_REQUIRED when the token is missing or spent. */
  async requirePass(passToken: unknown): Promise<void> {
    if (!(await this.consumePass(passToken))) throw new AppError('SLIDER_REQUIRED');
  }

  /** Deletes challenges (and their pass tokens) that expired more than an hour ago. */
  prune(): Promise<number> {
    return repo.deleteExpiredChallenges(this.database, this.now() - 3600_000);
  }
}
