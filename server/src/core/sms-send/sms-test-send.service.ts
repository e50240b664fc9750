import {
  AppError,
  formatMessage,
  type Lang,
  SMS_MSG_TYPES,
  type SmsTestOptions,
  type SmsTestSendResult,
  type smsTestSendSchema,
  splitPhones,
} from '@herald/shared';
import type { z } from 'zod';
import type { Database } from '../../db/database.ts';
import type { Caller } from '../context.ts';
import * as templates from '../sms-templates/sms-templates.repo.ts';
import * as smsUsers from '../sms-users/sms-users.repo.ts';
import type { SmsSendService } from './sms-send.service.ts';

/**
 * The console's SMS test send (`/s_sendRelative/test`): an SMS_USER of the account sends one of
 * its passed templates to up to five numbers, through the same accept path as the SMS API (so
 * the same gates, limits and records apply, and a test SMS_USER's test limits).
 */
export class SmsTestSendService {
  private readonly database: Database;
  private readonly sending: SmsSendService;

  constructor(database: Database, send: SmsSendService) {
    this.database = database;
    this.sending = send;
  }

  async options({ accountId }: Caller): Promise<SmsTestOptions> {
    const users = await smsUsers.listSmsUsers(this.database, accountId);
    const { rows } = await templates.listTemplates(this.database, accountId, {
      status: 'passed',
      pageNum: 1,
      pageSize: 100,
    });
    return {
      smsUsers: users.map((u) => ({ id: Number(u.id), name: u.name, cType: u.c_type })),
      templates: rows.map((t) => ({
        id: Number(t.id),
        name: t.name,
        kind: t.kind,
        region: t.region,
        content: t.content,
        signName: t.sign_name ?? null,
        variables: parseVariables(t.variables),
      })),
    };
  }

  async send(
    { accountId }: Caller,
    input: z.infer<typeof smsTestSendSchema>,
    lang: Lang,
  ): Promise<SmsTestSendResult> {
    const user = await smsUsers.findSmsUser(this.database, accountId, input.smsUserId);
    if (!user) throw new AppError('SMS_USER_NOT_FOUND');
    const template = await templates.findTemplate(this.database, accountId, input.templateId);
    if (!template) throw new AppError('SMS_TEMPLATE_NOT_FOUND');
    const msgType =
      template.kind === 'voice'
        ? SMS_MSG_TYPES.voice
        : template.kind === 'mms'
          ? SMS_MSG_TYPES.mms
          : template.region === 'international'
            ? SMS_MSG_TYPES.international
            : SMS_MSG_TYPES.sms;
    const result = await this.sending.send({
      smsUser: { id: Number(user.id), accountId, name: user.name, cType: user.c_type },
      msgType,
      recipients: splitPhones(input.phones).map((phone) => ({ phone, vars: input.vars })),
      templateId: input.templateId,
      source: 'console',
    });
    return {
      smsIds: result.smsIds,
      failed: result.failed.map((f) => ({
        phone: f.phone,
        message: formatMessage(f.code as 'SMS_PHONE_INVALID', lang, f.params),
      })),
    };
  }
}

function parseVariables(text: string): Record<string, string> {
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, string>)
      : {};
  } catch {
    return {};
  }
}
