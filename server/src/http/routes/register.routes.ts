import {
  AUTHENTICATED,
  changePasswordSchema,
  emailSchema,
  forgotPasswordSchema,
  PUBLIC,
  phoneSchema,
  type RegisterVerificationMethod,
  registerSchema,
  registerSmsCodeSchema,
  resendActivationSchema,
  resetPasswordSchema,
  userNameSchema,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

/**
 * Sign-up, availability checks, activation and the password flows (console-spec §7 "Auth and
 * user"). Paths under /v3/access are public by nature; changing a password needs a login.
 */
/** Per-IP allowances of the public account calls. */
const LIMITS = {
  availability: { bucket: 'register-availability', limit: 60, windowMs: 60_000 },
  register: { bucket: 'register', limit: 20, windowMs: 10 * 60_000 },
  mail: { bucket: 'account-mail', limit: 10, windowMs: 10 * 60_000 },
  reset: { bucket: 'password-reset', limit: 20, windowMs: 10 * 60_000 },
  /** On top of the per-phone limits of the codes themselves: one IP cannot text many phones. */
  smsCode: { bucket: 'register-sms-code', limit: 5, windowMs: 10 * 60_000 },
} as const;
const limited = (rateLimit: (typeof LIMITS)[keyof typeof LIMITS]) => ({
  config: { access: PUBLIC, rateLimit },
});

export function registerRoutes(app: FastifyInstance, core: Core): void {
  const registration = core.registration;
  const available = { data: { available: true } };

  app.get('/v3/access/register/checkUserName', limited(LIMITS.availability), async (request) => {
    const { userName } = z.object({ userName: userNameSchema }).parse(request.query);
    await registration.checkUserName(userName);
    return available;
  });
  app.get('/v3/access/register/checkEmail', limited(LIMITS.availability), async (request) => {
    const { email } = z.object({ email: emailSchema }).parse(request.query);
    await registration.checkEmail(email);
    return available;
  });
  app.get('/v3/access/register/checkPhone', limited(LIMITS.availability), async (request) => {
    const { phone } = z.object({ phone: phoneSchema }).parse(request.query);
    await registration.checkPhone(phone);
    return available;
  });

  // Whether sign-up proves the phone by SMS (a carrier is configured), and the form's human checks.
  app.get('/v3/access/register/verification/way', { config: { access: PUBLIC } }, async () => ({
    data: registration.verificationWay(),
  }));
  app.get('/v3/access/register/verification/method', { config: { access: PUBLIC } }, async () => ({
    data: { slider: true, imageCode: true } satisfies RegisterVerificationMethod,
  }));
  app.post('/v3/access/register/sendSmsCode', limited(LIMITS.smsCode), async (request) => {
    const { phone } = registerSmsCodeSchema.parse(request.body);
    return { data: await registration.sendRegisterCode(phone, request.lang) };
  });

  app.post('/v3/access/register', limited(LIMITS.register), async (request, reply) => {
    const input = registerSchema.parse(request.body);
    await core.humanCheck.require(input, { slider: true, captcha: 'register' });
    await registration.register(input, request.lang);
    return reply.status(201).send({ data: { userName: input.userName, email: input.email } });
  });

  app.post('/v3/access/register/resendRegMail', limited(LIMITS.mail), async (request) => {
    const { userName, ...answers } = resendActivationSchema.parse(request.body);
    await core.humanCheck.require(answers, { slider: false, captcha: 'resendRegMail' });
    await registration.resendActivation(userName, request.lang);
    return { success: true };
  });

  // The link in the activation mail: activates, then shows the console's result page.
  app.get('/v3/access/register/regConfirm', { config: { access: PUBLIC } }, async (request, reply) => {
    const { token } = z.object({ token: z.string().max(256).default('') }).parse(request.query);
    const lang = `lang=${request.lang}`;
    try {
      await registration.activate(token);
      return reply.redirect(`/activateSuccess?${lang}`);
    } catch {
      return reply.redirect(`/activateFailed?${lang}`);
    }
  });

  app.post('/v3/access/password/forget', limited(LIMITS.mail), async (request) => {
    const { email, ...answers } = forgotPasswordSchema.parse(request.body);
    await core.humanCheck.require(answers, { slider: false, captcha: 'password' });
    await registration.forgotPassword(email, request.lang);
    return { success: true };
  });

  app.post('/v3/access/password/reset', limited(LIMITS.reset), async (request) => {
    const { token, password } = resetPasswordSchema.parse(request.body);
    await registration.resetPassword(token, password);
    return { success: true };
  });

  app.post('/v3/access/password/change', { config: { access: AUTHENTICATED } }, async (request) => {
    const { oldPassword, newPassword } = changePasswordSchema.parse(request.body);
    await registration.changePassword(callerOf(request), oldPassword, newPassword);
    return { success: true };
  });
}
