import { AUTHENTICATED, smsCodeValidateSchema, verifyIdentitySchema } from '@herald/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Core } from '../../compose.ts';
import type { VerificationKind } from '../../core/sensitive-verification/sensitive-verification.service.ts';
import { callerOf } from '../context.ts';
import type { RouteRateLimit } from '../plugins/rate-limit.ts';

const MINUTE = 60_000;
const perUser = (request: FastifyRequest) => `user:${request.principal?.userId ?? request.ip}`;
export const VERIFY_SENDS: RouteRateLimit = {
  bucket: 'verify.send',
  limit: 5,
  windowMs: MINUTE,
  key: perUser,
};
const VERIFY_CHECKS: RouteRateLimit = {
  bucket: 'verify.check',
  limit: 10,
  windowMs: 10 * MINUTE,
  key: perUser,
};

/**
 * Sensitive-operation and download verification (console-spec §7 "Security", `/verify/*`): the
 * ways the user has, a code by SMS or email to their own phone or address, and the check that
 * marks this session verified for ten minutes. Codes are rate-limited per user on top of the
 * verification codes' own limits (one a minute, 5 an hour, 10 a day per target).
 */
export function verifyRoutes(app: FastifyInstance, core: Core): void {
  const verification = core.sensitiveVerification;

  app.get('/v3/api/verify/way/sys', { config: { access: AUTHENTICATED } }, async (request) => ({
    data: await verification.ways(callerOf(request)),
  }));

  for (const [path, way] of [
    ['sendSmsCode', 'sms'],
    ['sendEmailCode', 'email'],
  ] as const) {
    app.post(
      `/v3/api/verify/${path}`,
      { config: { access: AUTHENTICATED, rateLimit: VERIFY_SENDS } },
      async (request) => ({ data: await verification.sendCode(callerOf(request), way, request.lang) }),
    );
  }

  for (const [path, kind] of [
    ['sys', 'sensitive'],
    ['download', 'download'],
  ] as const satisfies readonly (readonly [string, VerificationKind])[]) {
    app.post(
      `/v3/api/verify/${path}`,
      { config: { access: AUTHENTICATED, rateLimit: VERIFY_CHECKS } },
      async (request) => {
        const { way, code } = verifyIdentitySchema.parse(request.body);
        return { data: await verification.verify(callerOf(request), kind, way, code) };
      },
    );
  }

  /**
   * The SMS-only form of the same check, for screens that verify by the user's own phone
   * (console-spec §7 `/userInfo/smsCode/{check, validate}`, `/verify/smsCodeCheck`). The code is
   * the one `/verify/sendSmsCode` texted; a right one marks this session verified for sensitive
   * operations, like `/verify/sys` with way `sms`. `check` says whether the session holds that
   * verification now, and to which (masked) phone a code would go.
   */
  app.get('/v3/api/userInfo/smsCode/check', { config: { access: AUTHENTICATED } }, async (request) => {
    const session = callerOf(request);
    const { ways, sensitiveVerifiedUntil } = await verification.ways(session);
    const sms = ways.find((w) => w.way === 'sms');
    return {
      data: {
        verified: sensitiveVerifiedUntil !== null,
        verifiedUntil: sensitiveVerifiedUntil,
        phone: sms?.target ?? null,
      },
    };
  });
  for (const url of ['/v3/api/userInfo/smsCode/validate', '/v3/api/verify/smsCodeCheck']) {
    app.post(url, { config: { access: AUTHENTICATED, rateLimit: VERIFY_CHECKS } }, async (request) => {
      const { code } = smsCodeValidateSchema.parse(request.body);
      return { data: await verification.verify(callerOf(request), 'sensitive', 'sms', code) };
    });
  }
}
