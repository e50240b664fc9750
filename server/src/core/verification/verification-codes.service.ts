import { randomBytes, randomInt } from 'node:crypto';
import { AppError, type CodeSent, type Lang } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import { hashSecret, sameHash } from '../../lib/secret-hash.ts';
import * as repo from './verification-codes.repo.ts';

export type CodeChannel = repo.CodeChannel;

/**
 * Where codes go out. The composition root passes the notifications service; this module needs
 * only these two calls, so it does not depend on how mail and SMS are delivered.
 */
export interface CodeSender {
  sendEmail(message: { to: string; subject: string; text: string }): Promise<unknown>;
  sendSms(message: { to: string; text: string }): Promise<unknown>;
}

export const CODE_TTL_MS = 10 * 60_000;
export const CODE_MAX_ATTEMPTS = 5;
/** product-spec §8: 'The sending interval is too short, try again after 1 minute'. */
export const CODE_RESEND_INTERVAL_MS = 60_000;
/** product-spec §9: per-target caps of 5 an hour and 10 a day. */
export const CODE_LIMIT_PER_HOUR = 5;
export const CODE_LIMIT_PER_DAY = 10;
const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

export function codeMessage(code: string, lang: Lang): { subject: string; text: string } {
  return lang === 'en'
    ? {
        subject: 'Herald verification code',
        text: `Your Herald verification code is ${code}, valid for 10 minutes`,
      }
    : { subject: 'Herald 验证码', text: `您的 Herald 验证码为 ${code}，10 分钟内有效` };
}

export function normalizeTarget(channel: CodeChannel, target: string): string {
  return channel === 'email' ? target.trim().toLowerCase() : target.replace(/[\s-]/g, '');
}

/** Deletes codes older than the longest send-limit window; run by a periodic task. */
export function pruneVerificationCodes(database: Database, now = Date.now()): Promise<number> {
  return repo.deleteCodesBefore(database, now - DAY_MS);
}

/**
 * Six-digit codes sent by SMS or email for a purpose (register, password reset, sensitive actions).
 * Only a salted hash is stored; a code lives ten minutes, takes five checks at most and works once,
 * and a newer code of the same purpose retires the older. Send limits are counted per target across
 * purposes, from the codes table itself: the new row is written first and then the target's
 * history is counted, so two racing sends can at worst both be refused, never both let through.
 */
export class VerificationCodesService {
  private readonly database: Database;
  private readonly sender: CodeSender;
  private readonly now: () => number;

  constructor(database: Database, sender: CodeSender, options: { now?: () => number } = {}) {
    this.database = database;
    this.sender = sender;
    this.now = options.now ?? Date.now;
  }

  async send(purpose: string, channel: CodeChannel, rawTarget: string, lang: Lang): Promise<CodeSent> {
    const target = normalizeTarget(channel, rawTarget);
    const code = String(randomInt(1_000_000)).padStart(6, '0');
    const salt = randomBytes(16).toString('base64url');
    const now = this.now();
    const id = await repo.insertCode(
      this.database,
      { purpose, channel, target, codeHash: hashSecret(salt, code), salt, expiresAt: now + CODE_TTL_MS },
      now,
    );
    const refusal = await this.refusal(id, channel, target, now);
    if (refusal) {
      await repo.deleteCode(this.database, id);
      throw refusal;
    }

    const { subject, text } = codeMessage(code, lang);
    try {
      if (channel === 'email') await this.sender.sendEmail({ to: target, subject, text });
      else await this.sender.sendSms({ to: target, text });
    } catch (cause) {
      // Nothing reached the target, so the attempt counts against no limit.
      await repo.deleteCode(this.database, id);
      if (cause instanceof AppError) throw cause;
      const error = new AppError('VERIFY_SEND_FAILED');
      error.cause = cause;
      throw error;
    }
    await repo.retireOthers(this.database, { purpose, channel, target, keepId: id }, now);
    return { expiresInSeconds: CODE_TTL_MS / 1000, resendAfterSeconds: CODE_RESEND_INTERVAL_MS / 1000 };
  }

  /** True once for the right code: the newest live one of this purpose and target. */
  async check(purpose: string, channel: CodeChannel, target: string, code: unknown): Promise<boolean> {
    return (await this.outcome(purpose, channel, target, code)) === 'ok';
  }

  /** As check, for flows that go on only with a good code: throws the reason otherwise. */
  async requireValid(purpose: string, channel: CodeChannel, target: string, code: unknown): Promise<void> {
    const outcome = await this.outcome(purpose, channel, target, code);
    if (outcome === 'attempts_exceeded') throw new AppError('VERIFY_CODE_ATTEMPTS_EXCEEDED');
    if (outcome !== 'ok') throw new AppError('VERIFY_CODE_INVALID');
  }

  private async refusal(id: number, channel: CodeChannel, target: string, now: number) {
    const sends = await repo.listSendsSince(this.database, channel, target, now - DAY_MS);
    const others = sends.filter((s) => s.id !== id);
    if (others.some((s) => s.created_at > now - CODE_RESEND_INTERVAL_MS)) {
      return new AppError('VERIFY_SEND_TOO_SOON');
    }
    if (sends.filter((s) => s.created_at > now - HOUR_MS).length > CODE_LIMIT_PER_HOUR) {
      return new AppError('VERIFY_SEND_LIMIT_HOURLY', { limit: CODE_LIMIT_PER_HOUR });
    }
    if (sends.length > CODE_LIMIT_PER_DAY) {
      return new AppError('VERIFY_SEND_LIMIT_DAILY', { limit: CODE_LIMIT_PER_DAY });
    }
    return null;
  }

  private async outcome(
    purpose: string,
    channel: CodeChannel,
    rawTarget: string,
    code: unknown,
  ): Promise<'ok' | 'invalid' | 'attempts_exceeded'> {
    const target = normalizeTarget(channel, rawTarget);
    const now = this.now();
    const row = await repo.findLiveCode(this.database, { purpose, channel, target }, now);
    if (!row) return 'invalid';
    if (!(await repo.countAttempt(this.database, row.id, CODE_MAX_ATTEMPTS))) return 'attempts_exceeded';
    const given = typeof code === 'string' ? code.trim().slice(0, 16) : '';
    if (!sameHash(row.code_hash, hashSecret(row.salt, given))) {
      return row.attempts + 1 >= CODE_MAX_ATTEMPTS ? 'attempts_exceeded' : 'invalid';
    }
    return (await repo.consumeCode(this.database, row.id, now)) ? 'ok' : 'invalid';
  }
}
