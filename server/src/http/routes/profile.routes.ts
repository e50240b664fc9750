import {
  AUTHENTICATED,
  accountHolderTypeSchema,
  changeEmailSchema,
  changePasswordSchema,
  changePhoneSchema,
  changeUserNameSchema,
  enterpriseInfoSchema,
  exmailSchema,
  newPhoneSchema,
  personalInfoSchema,
  receiveEmailSchema,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

/** The user's own details: reading them, and the `edited/*` changes of console-spec §7. */
export function profileRoutes(app: FastifyInstance, core: Core): void {
  const access = { config: { access: AUTHENTICATED } };
  const profile = core.profile;

  app.get('/v3/api/userInfo/primary', access, async (request) => ({
    data: await profile.primary(callerOf(request)),
  }));
  // The console treats `success: false` here as a failure carrying the server's message.
  app.get('/v3/api/userInfo/userContactInfo', access, async (request) => ({
    success: true,
    data: await profile.contactInfo(callerOf(request)),
  }));
  app.get('/v3/api/userInfo/userFullFillMes', access, async (request) => ({
    data: await profile.completeness(callerOf(request)),
  }));

  app.patch('/v3/api/userInfo/edited/username', access, async (request) => {
    const { userName } = changeUserNameSchema.parse(request.body);
    await profile.changeUserName(callerOf(request), userName);
    return { success: true };
  });
  app.patch('/v3/api/userInfo/edited/email', access, async (request) => {
    const { email } = changeEmailSchema.parse(request.body);
    await profile.changeEmail(callerOf(request), email);
    return { success: true };
  });
  app.post(
    '/v3/api/userInfo/sendSmsCode/new',
    {
      config: { access: AUTHENTICATED, rateLimit: { bucket: 'new-phone-code', limit: 5, windowMs: 60_000 } },
    },
    async (request) => {
      const { phone } = newPhoneSchema.parse(request.body);
      return { data: await profile.sendNewPhoneCode(callerOf(request), phone, request.lang) };
    },
  );
  app.patch('/v3/api/userInfo/edited/phone', access, async (request) => {
    const { phone, code } = changePhoneSchema.parse(request.body);
    await profile.changePhone(callerOf(request), phone, code);
    return { success: true };
  });
  app.patch('/v3/api/userInfo/edited/receiveEmail', access, async (request) => {
    const { email } = receiveEmailSchema.parse(request.body);
    await profile.setReceiveEmail(callerOf(request), email);
    return { success: true };
  });

  // The account's details: every user reads them, the owner changes them (core/profile/account-details).
  const details = core.accountDetails;
  app.get('/v3/api/userInfo/details', access, async (request) => ({
    data: await details.get(callerOf(request)),
  }));
  app.patch('/v3/api/userInfo/edited/accountType', access, async (request) => {
    const { accountType } = accountHolderTypeSchema.parse(request.body);
    return { success: true, data: await details.setAccountType(callerOf(request), accountType) };
  });
  app.patch('/v3/api/userInfo/edited/enterprise', access, async (request) => {
    const info = enterpriseInfoSchema.parse(request.body);
    return { success: true, data: await details.setEnterprise(callerOf(request), info) };
  });
  app.patch('/v3/api/userInfo/edited/personal', access, async (request) => {
    const info = personalInfoSchema.parse(request.body);
    return { success: true, data: await details.setPersonal(callerOf(request), info) };
  });
  app.patch('/v3/api/userInfo/edited/exmail', access, async (request) => {
    const { email } = exmailSchema.parse(request.body);
    return { success: true, data: await details.setExmail(callerOf(request), email) };
  });
  app.patch('/v3/api/userInfo/edited/passwd', access, async (request) => {
    const { oldPassword, newPassword } = changePasswordSchema.parse(request.body);
    await profile.changePassword(callerOf(request), oldPassword, newPassword);
    return { success: true };
  });
}
