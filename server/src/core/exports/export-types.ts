import {
  type EmailStatusExportInput,
  type ExportCreateInput,
  type ExportType,
  type Lang,
  type MailEventData,
  type OpenClickExportInput,
  parseMobile,
  type SmsStatusExportInput,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import * as statusRepo from '../email-status/email-status.repo.ts';
import { sendCloudStatus } from '../email-status/email-status.service.ts';
import { contentSince } from '../sms-content-view/sms-content-view.service.ts';
import * as smsRepo from '../sms-messages/sms-messages.repo.ts';
import type { SmsMessageFilter } from '../sms-messages/sms-messages.types.ts';
import { type Cell, timeText } from './csv.ts';
import * as exportsRepo from './exports.repo.ts';

/**
 * What each export type reads: its CSV header in both languages, how many rows it will write
 * (for the progress bar) and its rows, a page at a time, in a stable order. A new type is one
 * entry in EXPORT_SOURCES (and its schema in the shared export.schema.ts).
 */
export interface ExportSource<F> {
  header: Record<Lang, string[]>;
  count(database: Database, accountId: number, filter: F): Promise<number>;
  /** `now`: when the job started, for anything that depends on the time (the SMS content window). */
  pages(
    database: Database,
    accountId: number,
    filter: F,
    pageSize: number,
    now: number,
  ): AsyncGenerator<Cell[][]>;
}

type InputOf<T extends ExportType> = Extract<ExportCreateInput, { type: T }>;

function statusFilter(f: EmailStatusExportInput): statusRepo.StatusFilter {
  const email = f.email?.trim();
  return {
    from: f.startTime,
    to: f.endTime,
    emails: email ? [...new Set([email, email.toLowerCase()])] : undefined,
    emailIds: f.emailId ? [f.emailId] : undefined,
    apiUserIds: f.apiUserId ? [f.apiUserId] : undefined,
    labelIds: f.labelId ? [f.labelId] : undefined,
    statuses: f.status ? [f.status] : undefined,
  };
}

const emailStatus: ExportSource<EmailStatusExportInput> = {
  header: {
    en: [
      'Email ID',
      'Message ID',
      'Recipient',
      'Status',
      'Status code',
      'Sub-status',
      'Reason',
      'Last reply',
      'Subject',
      'From',
      'API_USER',
      'Label ID',
      'Attempts',
      'Request time',
      'Modified time',
      'Delivered time',
    ],
    'zh-cn': [
      '邮件ID',
      'Message ID',
      '收件人',
      '状态',
      '状态码',
      '子状态',
      '原因',
      '最后回复',
      '主题',
      '发件人',
      'API_USER',
      '标签ID',
      '投递次数',
      '请求时间',
      '更新时间',
      '送达时间',
    ],
  },
  count: (database, accountId, f) => statusRepo.countStatuses(database, accountId, statusFilter(f)),
  /**
   * The email status query, newest first as the screen shows it. Instead of a growing OFFSET,
   * each page narrows the upper time bound to the last row's time and skips only the rows
   * already written at exactly that time, so page N costs what page 1 costs.
   */
  async *pages(database, accountId, f, pageSize) {
    const filter = statusFilter(f);
    let to = filter.to;
    let skip = 0;
    for (;;) {
      const rows = await statusRepo.listStatuses(
        database,
        accountId,
        { ...filter, to },
        { offset: skip, limit: pageSize },
      );
      if (rows.length > 0) {
        yield rows.map((r) => [
          r.email_id,
          r.message_id,
          r.recipient,
          r.status,
          sendCloudStatus(r.status),
          r.sub_status ?? (r.status === 'deleted' ? 409 : null),
          r.reason,
          r.last_reply,
          r.subject,
          r.from_address,
          r.api_user,
          r.label_id,
          r.attempts,
          timeText(r.created_at),
          timeText(r.updated_at),
          timeText(r.delivered_at),
        ]);
      }
      if (rows.length < pageSize) return;
      const last = Number(rows[rows.length - 1]?.created_at);
      const atLast = rows.filter((r) => Number(r.created_at) === last).length;
      skip = last === to ? skip + atLast : atLast;
      to = last;
    }
  },
};

function dataOf(text: string | null): MailEventData {
  if (!text) return {};
  try {
    return JSON.parse(text) as MailEventData;
  } catch {
    return {};
  }
}

const openClick: ExportSource<OpenClickExportInput> = {
  header: {
    en: ['Time', 'Event', 'Email ID', 'Recipient', 'Link', 'IP', 'Browser', 'OS', 'Bot', 'First'],
    'zh-cn': ['时间', '事件', '邮件ID', '收件人', '链接', 'IP', '浏览器', '操作系统', '机器访问', '首次'],
  },
  async count(database, accountId, f) {
    return exportsRepo.countOpenClickEvents(database, accountId, f);
  },
  /** Oldest first, by event id (the log is append-only, so ids keep their order). */
  async *pages(database, accountId, f, pageSize) {
    let after = 0;
    for (;;) {
      const rows = await exportsRepo.openClickEventsPage(database, accountId, f, after, pageSize);
      if (rows.length > 0) {
        yield rows.map((r) => {
          const d = dataOf(r.data);
          const browser = [d.explorerName, d.explorerVer].filter(Boolean).join(' ');
          const os = [d.oSName, d.oSVer].filter(Boolean).join(' ');
          return [
            timeText(r.at),
            r.kind,
            r.email_id,
            r.recipient,
            d.url,
            d.ip,
            browser,
            os,
            d.bot === true,
            d.first === true,
          ];
        });
      }
      if (rows.length < pageSize) return;
      after = Number(rows[rows.length - 1]?.id);
    }
  },
};

function smsFilter(f: SmsStatusExportInput): SmsMessageFilter {
  return {
    from: f.startTime,
    to: f.endTime + 1,
    phones: f.phone ? [parseMobile(f.phone)?.e164 ?? f.phone] : undefined,
    smsIds: f.smsId ? [f.smsId] : undefined,
    labelId: f.labelId,
    status: f.status,
  };
}

/**
 * SMS status, as the status screen lists it (newest first). The text is written only where the
 * account's content view allows it when the job runs (on, paid, SMS of the last 45 days): the
 * cell is empty otherwise, and the text is not read.
 */
const smsStatus: ExportSource<SmsStatusExportInput> = {
  header: {
    en: [
      'SMS ID',
      'Phone',
      'Status',
      'Status code',
      'Reason',
      'Content',
      'Parts',
      'SMS_USER',
      'Template',
      'Label ID',
      'Request time',
      'Update time',
    ],
    'zh-cn': [
      '短信ID',
      '手机号',
      '状态',
      '状态码',
      '原因',
      '短信内容',
      '计费条数',
      'SMS_USER',
      '模板',
      '标签ID',
      '请求时间',
      '更新时间',
    ],
  },
  count: (database, accountId, f) => smsRepo.countMessages(database, accountId, smsFilter(f)),
  async *pages(database, accountId, f, pageSize, now) {
    const filter = smsFilter(f);
    const since = await contentSince(database, accountId, now);
    let after: { requestedAt: number; id: number } | null = null;
    for (;;) {
      const rows = await smsRepo.messagesPage(database, accountId, filter, since, after, pageSize);
      if (rows.length > 0) {
        yield rows.map((r) => [
          r.sms_id,
          r.phone,
          r.status,
          r.status_code,
          r.reason,
          r.content,
          r.parts,
          r.sms_user,
          r.template_name,
          r.label_id,
          timeText(r.requested_at),
          timeText(r.done_at ?? r.submitted_at ?? r.requested_at),
        ]);
      }
      const last = rows[rows.length - 1];
      if (!last || rows.length < pageSize) return;
      after = { requestedAt: Number(last.requested_at), id: Number(last.id) };
    }
  },
};

export const EXPORT_SOURCES: { [T in ExportType]: ExportSource<InputOf<T>> } = {
  emailStatus,
  openClick,
  smsStatus,
};

/** The source of a type, for code that holds a type and its filter as loose values. */
export function sourceOf(type: ExportType): ExportSource<ExportCreateInput> {
  return EXPORT_SOURCES[type] as ExportSource<ExportCreateInput>;
}
