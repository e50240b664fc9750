import { AppError, smsPlaceholders, smsTemplateInputSchema } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Caller } from '../context.ts';
import { type SendCloudTemplate, toSendCloudTemplate } from './sendcloud-template.ts';
import * as repo from './sms-templates.repo.ts';
import type { SmsTemplatesService } from './sms-templates.service.ts';

/** `isVerifyStr` of smsapi/list: 0 under review, 1 passed, -1 rejected, -2 not submitted. */
const STATUS_OF_VERIFY: Record<string, 'reviewing' | 'passed' | 'rejected' | 'unsubmitted'> = {
  '0': 'reviewing',
  '1': 'passed',
  '-1': 'rejected',
  '-2': 'unsubmitted',
};
/** `smsTypeStr`: 0 verification code, 1 notification, 2 marketing. */
const TYPE_OF: Record<string, 'code' | 'notice' | 'marketing'> = {
  '0': 'code',
  '1': 'notice',
  '2': 'marketing',
};

export interface ApiTemplateInput {
  templateName?: string;
  templateText?: string;
  signId?: number;
  signName?: string;
  smsTypeStr?: string;
  /** 2 for an international template; anything else is domestic SMS. */
  msgType?: number;
}

/**
 * The SMS API's template calls (reference §11: `smsapi/get|list|addsms|submitsms|updatesms|
 * deletesms`) over the same service and rules as the console. SendCloud's calls carry no
 * examples for the variables Herald's review wants; each placeholder's example is then its own
 * name, which the reviewer sees as such.
 */
export class SmsTemplatesApi {
  private readonly database: Database;
  private readonly service: SmsTemplatesService;

  constructor(database: Database, service: SmsTemplatesService) {
    this.database = database;
    this.service = service;
  }

  async list(
    { accountId }: Caller,
    query: { isVerifyStr?: string; start?: number; limit?: number },
  ): Promise<{ total: number; list: SendCloudTemplate[] }> {
    const limit = Math.min(Math.max(query.limit ?? 100, 1), 100);
    const { rows, total } = await repo.listTemplates(this.database, accountId, {
      status: query.isVerifyStr === undefined ? undefined : STATUS_OF_VERIFY[query.isVerifyStr],
      pageNum: Math.floor(Math.max(query.start ?? 0, 0) / limit) + 1,
      pageSize: limit,
    });
    return { total, list: rows.map(toSendCloudTemplate) };
  }

  async get({ accountId }: Caller, id: number): Promise<SendCloudTemplate> {
    const row = await repo.findTemplate(this.database, accountId, id);
    if (!row) throw new AppError('SMS_TEMPLATE_NOT_FOUND');
    return toSendCloudTemplate(row);
  }

  async add(caller: Caller, input: ApiTemplateInput): Promise<SendCloudTemplate> {
    const values = smsTemplateInputSchema.parse(await this.values(caller.accountId, input, undefined));
    const view = await this.service.create(caller, values);
    return this.get(caller, view.id);
  }

  async update(caller: Caller, id: number, input: ApiTemplateInput): Promise<SendCloudTemplate> {
    const current = await this.service.get(caller, id);
    const values = smsTemplateInputSchema.parse(await this.values(caller.accountId, input, current));
    await this.service.update(caller, id, values);
    return this.get(caller, id);
  }

  async submit(caller: Caller, id: number): Promise<SendCloudTemplate> {
    await this.service.submit(caller, id);
    return this.get(caller, id);
  }

  async remove(caller: Caller, id: number): Promise<void> {
    await this.service.remove(caller, id);
  }

  private async values(
    accountId: number,
    input: ApiTemplateInput,
    current: Awaited<ReturnType<SmsTemplatesService['get']>> | undefined,
  ) {
    const content = input.templateText ?? current?.content ?? '';
    const region = input.msgType === 2 ? 'international' : (current?.region ?? 'domestic');
    let signId = input.signId ?? current?.signId ?? undefined;
    if (input.signName) {
      const sign = (await repo.listSignOptions(this.database, accountId)).find(
        (s) => s.name === input.signName,
      );
      if (!sign) throw new AppError('SMS_SIGN_UNUSABLE');
      signId = sign.id;
    }
    const variables: Record<string, string> = { ...(current?.variables ?? {}) };
    for (const name of smsPlaceholders(content).names) variables[name] ??= name;
    return {
      kind: 'sms',
      name: input.templateName ?? current?.name ?? '',
      smsType: (input.smsTypeStr && TYPE_OF[input.smsTypeStr]) || current?.smsType || 'notice',
      region,
      signId,
      content,
      variables,
      trackLinks: current?.trackLinks ?? false,
    };
  }
}
