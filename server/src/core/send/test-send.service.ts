import {
  type AcceptedRecipientView,
  AppError,
  TEST_SEND_RECIPIENTS_MAX,
  type TestSendApiUserView,
  type TestSendCheckDomainInput,
  type TestSendParamInput,
  type TestSendQuickInput,
  type TestSendResult,
  type TestSendTemplateInput,
} from '@herald/shared';
import { apiUserRefOf } from '../api-users/api-user-auth.ts';
import type { KeyCaller, UserCaller } from '../context.ts';
import { domainOf } from './recipients.ts';
import type { SendService } from './send.service.ts';

const RECENT_MAX = 20;

/**
 * The console's test send (`/mail/testSend/*`): a signed-in user sends as one of the account's
 * API_USERs, to at most 5 people, from an address on that API_USER's own sending domain. It runs
 * the same accept path as the API (rules, quotas, durable write), marked with source `test`.
 */
export class TestSendService {
  private readonly send: SendService;

  constructor(send: SendService) {
    this.send = send;
  }

  async apiUsers(ctx: UserCaller): Promise<TestSendApiUserView[]> {
    const rows = await this.send.reads.apiUsersForTest(ctx.accountId);
    return rows.map((row) => ({
      id: Number(row.id),
      name: row.name,
      emailType: row.email_type,
      cType: row.c_type,
      domain: row.domain_name,
      domainStatus: row.domain_status,
    }));
  }

  /** `checkCategoryDomain`: the API_USER's domain, if `from` uses it and it may send. */
  async checkDomain(ctx: UserCaller, input: TestSendCheckDomainInput): Promise<{ domain: string }> {
    const { domain } = await this.callerFor(ctx, input.apiUserId, input.from);
    return { domain };
  }

  async quick(ctx: UserCaller, input: TestSendQuickInput | TestSendParamInput): Promise<TestSendResult> {
    const { caller } = await this.callerFor(ctx, input.apiUserId, input.from);
    const result = await this.send.send(
      caller,
      {
        from: input.from,
        fromName: input.fromName,
        to: input.to,
        subject: input.subject,
        html: input.html,
        xsmtpapi: 'xsmtpapi' in input && input.xsmtpapi ? withTo(input.xsmtpapi, input.to) : undefined,
      },
      [],
      { source: 'test', maxRecipients: TEST_SEND_RECIPIENTS_MAX },
    );
    return { messageId: result.messageId, emailIdList: result.emailIdList };
  }

  async template(ctx: UserCaller, input: TestSendTemplateInput): Promise<TestSendResult> {
    const { caller } = await this.callerFor(ctx, input.apiUserId, input.from);
    const result = await this.send.sendTemplate(
      caller,
      {
        from: input.from,
        fromName: input.fromName,
        subject: input.subject,
        templateInvokeName: input.templateInvokeName,
        xsmtpapi: withTo(input.xsmtpapi ?? '{}', input.to),
      },
      [],
      { source: 'test', maxRecipients: TEST_SEND_RECIPIENTS_MAX },
    );
    return { messageId: result.messageId, emailIdList: result.emailIdList };
  }

  /** The newest recipient records of the account's test sends, with their delivery status. */
  async recent(ctx: UserCaller): Promise<AcceptedRecipientView[]> {
    const rows = await this.send.reads.recentRecipients(ctx.accountId, 'test', RECENT_MAX);
    return rows.map((row) => ({
      emailId: row.email_id,
      messageId: row.message_id,
      recipient: row.recipient,
      subject: row.subject,
      from: row.from_address,
      apiUser: row.api_user ?? '',
      source: row.source,
      status: row.status,
      createdAt: Number(row.created_at),
    }));
  }

  private async callerFor(ctx: UserCaller, apiUserId: number, from: string) {
    const row = await this.send.reads.apiUserForTest(ctx.accountId, apiUserId);
    if (!row) throw new AppError('COMMON_NOT_FOUND', { entity: 'API_USER' });
    if (!row.domain_name) throw new AppError('SEND_TEST_NO_DOMAIN');
    const domain = row.domain_name.toLowerCase();
    if (domainOf(from) !== domain) throw new AppError('SEND_TEST_DOMAIN_MISMATCH', { domain });
    const caller: KeyCaller = {
      accountId: ctx.accountId,
      apiUser: apiUserRefOf(row),
    };
    return { caller, domain };
  }
}

/**
 * The console's variables come without recipients; the test's recipients are the form's `to`.
 * Invalid JSON is passed through so the accept path answers its xsmtpapi code.
 */
function withTo(xsmtpapi: string, to: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(xsmtpapi);
  } catch {
    return xsmtpapi;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return xsmtpapi;
  const recipients = to
    .split(/[;,]/)
    .map((a) => a.trim())
    .filter(Boolean);
  return JSON.stringify({ ...parsed, to: recipients });
}
