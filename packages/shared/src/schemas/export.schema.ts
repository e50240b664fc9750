import { z } from 'zod';
import { SMS_STATUSES } from '../sms-status.ts';
import type { ValidationKey } from '../validation.ts';
import { checkSpan, DATA_PAGE_SIZE_MAX, EMAIL_STATUSES } from './suppression.schema.ts';

/**
 * Offline data exports (console-spec §7 `/data/dataExportOfflines`; product-spec §3 "Export task:
 * type, progress, start and end time, status", §4 "Offline export: exporting, failed, used, using,
 * timed out/expired, voided, deleted", §9 "offline export files 7 days"). The console's export
 * button and `POST /data/dataExportOfflines` parse with these schemas.
 */
const rule = (key: ValidationKey) => ({ message: key });

/** How long a finished export's file is kept. */
export const EXPORT_KEEP_DAYS = 7;
/** Exports of one account running at once; more wait until one finishes (a 429 asks to wait). */
export const EXPORT_RUNNING_MAX = 5;

/** What can be exported. A new type is one schema here and one entry in core/exports/export-types.ts. */
export const EXPORT_TYPES = ['emailStatus', 'openClick', 'smsStatus'] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];

/**
 * Each channel's offline screen (`/sendResponse/offline`, `/s_sendResponse/offline`) lists, asks
 * for and acts on its own types only, under its own permission code.
 */
export const EXPORT_CHANNELS = ['email', 'sms'] as const;
export type ExportChannel = (typeof EXPORT_CHANNELS)[number];
export const EXPORT_CHANNEL_OF: Record<ExportType, ExportChannel> = {
  emailStatus: 'email',
  openClick: 'email',
  smsStatus: 'sms',
};
export const exportTypesOf = (channel: ExportChannel): ExportType[] =>
  EXPORT_TYPES.filter((type) => EXPORT_CHANNEL_OF[type] === channel);

/**
 * - exporting: queued or running (progress 0–99);
 * - failed: the job stopped with an error (kept with its reason; can be retried);
 * - using: the file is ready and has not been downloaded yet;
 * - used: downloaded at least once (still downloadable until it expires);
 * - expired: 7 days after it finished; the file is deleted;
 * - voided: marked invalid by the user (a running one stops); the file is deleted;
 * - deleted: removed by the user; the file is deleted and the row no longer listed.
 */
export const EXPORT_STATUSES = [
  'exporting',
  'failed',
  'using',
  'used',
  'expired',
  'voided',
  'deleted',
] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];
/** Statuses whose file can be downloaded. */
export const EXPORT_READY_STATUSES: readonly ExportStatus[] = ['using', 'used'];

const optionalId = z.preprocess(
  (v) => (v === '' || v === null || v === undefined || v === 0 || v === '0' ? undefined : v),
  z.coerce.number(rule('invalid')).int(rule('invalid')).positive(rule('invalid')).optional(),
);
const optionalText = (max: number) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.string().trim().max(max, rule('lengthExceeded')).optional(),
  );
const time = z.coerce.number(rule('required')).int(rule('invalid')).nonnegative(rule('invalid'));

/** Email status: the filters of `/sendResponse/emailStatus`, over at most one month. */
export const emailStatusExportSchema = z
  .object({
    type: z.literal('emailStatus'),
    email: optionalText(254),
    emailId: optionalText(600),
    apiUserId: optionalId,
    labelId: optionalId,
    status: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.enum(EMAIL_STATUSES, rule('invalid')).optional(),
    ),
    startTime: time,
    endTime: time,
  })
  .superRefine(checkSpan);
export type EmailStatusExportInput = z.infer<typeof emailStatusExportSchema>;

export const OPEN_CLICK_KINDS = ['open', 'click'] as const;

/** Opens and clicks (mail events), over at most one month. */
export const openClickExportSchema = z
  .object({
    type: z.literal('openClick'),
    email: optionalText(254),
    apiUserId: optionalId,
    labelId: optionalId,
    kind: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.enum(OPEN_CLICK_KINDS, rule('invalid')).optional(),
    ),
    startTime: time,
    endTime: time,
  })
  .superRefine(checkSpan);
export type OpenClickExportInput = z.infer<typeof openClickExportSchema>;

/** SMS status: the filters of `/s_sendResponse/smsStatus`, over at most one month. */
export const smsStatusExportSchema = z
  .object({
    type: z.literal('smsStatus'),
    phone: optionalText(32),
    smsId: optionalText(80),
    labelId: optionalId,
    status: z.preprocess((v) => (v === '' ? undefined : v), z.enum(SMS_STATUSES, rule('invalid')).optional()),
    startTime: time,
    endTime: time,
  })
  .superRefine(checkSpan);
export type SmsStatusExportInput = z.infer<typeof smsStatusExportSchema>;

/** A new export: its type and that type's filters, flat (form posts and JSON alike). */
export const exportCreateSchema = z.discriminatedUnion(
  'type',
  [emailStatusExportSchema, openClickExportSchema, smsStatusExportSchema],
  rule('exportTypeInvalid'),
);
export type ExportCreateInput = z.infer<typeof exportCreateSchema>;

export const exportListQuerySchema = z.object({
  page: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).default(1)),
  pageSize: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce.number().int().min(1).max(DATA_PAGE_SIZE_MAX).default(20),
  ),
});
export type ExportListQuery = z.infer<typeof exportListQuerySchema>;

export const exportIdSchema = z.object({
  id: z.coerce.number(rule('invalid')).int(rule('invalid')).positive(rule('invalid')),
});

/** One export as the offline screen lists it. */
export interface ExportView {
  id: number;
  type: ExportType;
  status: ExportStatus;
  /** 0–100; 100 once the file is complete. */
  progress: number;
  /** Data rows written (without the header). */
  rows: number;
  /** Bytes of the gzip'd CSV; null until it is complete. */
  fileSize: number | null;
  /** The filters the export was asked with (without `type`). */
  filter: Record<string, unknown>;
  startTime: number;
  endTime: number;
  error: string | null;
  requestedBy: string | null;
  createdAt: number;
  finishedAt: number | null;
  expiresAt: number | null;
  downloadedAt: number | null;
}
