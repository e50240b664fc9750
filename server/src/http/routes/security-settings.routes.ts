import { AUTHENTICATED, loginVerifyConfigSchema, totpCodeSchema, verifySwitchSchema } from '@herald/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';
import type { RouteRateLimit } from '../plugins/rate-limit.ts';
import { VERIFY_SENDS } from './verify.routes.ts';

const MINUTE = 60_000;
const perUser = (request: FastifyRequest) => `user:${request.principal?.userId ?? request.ip}`;
const QR_CODES: RouteRateLimit = { bucket: 'googleAuth.qrCode', limit: 10, windowMs: MINUTE, key: perUser };
const TOTP_CHECKS: RouteRateLimit = {
  bucket: 'googleAuth.check',
  limit: 10,
  windowMs: 10 * MINUTE,
  key: perUser,
};

/**
 * The security screen (console-spec §2 /accountSetting/security, §7 "Security" and Google
 * authenticator): what is on, the verification switches and the authenticator binding. Every
 * change here needs a verification of this session in the last ten minutes (`/verify/sys`);
 * the core enforces it (VERIFY_REQUIRED, 403).
 */
export function securitySettingsRoutes(app: FastifyInstance, core: Core): void {
  const settings = core.securitySettings;
  const access = { access: AUTHENTICATED };

  app.get('/v3/api/user/config/securitySetting', { config: access }, async (request) => ({
    data: await settings.get(callerOf(request)),
  }));

  app.post('/v3/api/user/config/verifyConfig/edited/login', { config: access }, async (request) => ({
    data: await settings.setLoginVerify(callerOf(request), loginVerifyConfigSchema.parse(request.body)),
  }));

  app.post('/v3/api/user/config/verifyConfig/edited/download', { config: access }, async (request) => {
    const { enabled } = verifySwitchSchema.parse(request.body);
    return { data: await settings.setDownloadVerify(callerOf(request), enabled) };
  });

  app.post('/v3/api/user/config/verifyConfig/sensitive', { config: access }, async (request) => {
    const { enabled } = verifySwitchSchema.parse(request.body);
    return { data: await settings.setSensitiveVerify(callerOf(request), enabled) };
  });

  const google = core.googleAuth;
  const verification = core.sensitiveVerification;

  app.get(
    '/v3/api/user/config/googleAuth/qrCode',
    { config: { ...access, rateLimit: QR_CODES } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: await google.qrCode(callerOf(request)) };
    },
  );

  app.post(
    '/v3/api/user/config/googleAuth/binding',
    { config: { ...access, rateLimit: TOTP_CHECKS } },
    async (request) => {
      const { code } = totpCodeSchema.parse(request.body);
      const session = callerOf(request);
      await verification.requireRecentVerification(session, { always: true });
      await google.bind(session, code);
      return { data: await settings.get(session) };
    },
  );

  app.delete('/v3/api/user/config/googleAuth/binding', { config: access }, async (request, reply) => {
    const session = callerOf(request);
    await verification.requireRecentVerification(session, { always: true });
    await google.unbind(session);
    return reply.status(204).send();
  });

  app.post(
    '/v3/api/user/config/googleAuth/check',
    { config: { ...access, rateLimit: TOTP_CHECKS } },
    async (request) => {
      const { code } = totpCodeSchema.parse(request.body);
      await google.check(callerOf(request), code);
      return { data: { valid: true } };
    },
  );

  // The binding screen's "send SMS code" (console-spec §7): the sensitive-verification code.
  app.post(
    '/v3/api/user/config/googleAuth/sendSmsCode',
    { config: { ...access, rateLimit: VERIFY_SENDS } },
    async (request) => ({ data: await verification.sendCode(callerOf(request), 'sms', request.lang) }),
  );
}
