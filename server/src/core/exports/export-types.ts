import type {
  EmailStatusExportInput,
  ExportCreateInput,
  ExportType,
  Lang,
  MailEventData,
  OpenClickExportInput,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import * as statusRepo from '../email-status/email-status.repo.ts';
import { sendCloudStatus } from '../email-status/email-status.service.ts';
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
  pages(database: Database, accountId: number, filter: F, pageSize: number): AsyncGenerator<Cell[][]>;
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

export const EXPORT_SOURCES: { [T in ExportType]: ExportSource<InputOf<T>> } = {
  emailStatus,
  openClick,
};

/** The source of a type, for code that holds a type and its filter as loose values. */
export function sourceOf(type: ExportType): ExportSource<ExportCreateInput> {
  return EXPORT_SOURCES[type] as ExportSource<ExportCreateInput>;
}
