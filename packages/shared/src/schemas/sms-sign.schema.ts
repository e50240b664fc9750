import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';
import { isValidIdNumber } from './profile.schema.ts';

/**
 * SMS signatures (product-spec §3, §5; console `/s_sendRelative/sign`, calls `/sms/smsSigns`):
 * the 【name】 every SMS carries. One schema checks the console's form and the server's request;
 * a new or changed signature waits for the platform operator's review before it can be sent.
 */
const rule = (key: ValidationKey) => ({ message: key });

export const SMS_SIGN_NAME_MIN = 2;
export const SMS_SIGN_NAME_MAX = 12;
export const SMS_SIGN_ATTACHMENTS_MAX = 5;
export const SMS_SIGN_TYPES = ['domestic', 'international'] as const;
export type SmsSignType = (typeof SMS_SIGN_TYPES)[number];
export const SMS_SIGN_SOURCES = [
  'enterprise',
  'trademark',
  'app',
  'public_account',
  'shop',
  'brand',
] as const;
export type SmsSignSource = (typeof SMS_SIGN_SOURCES)[number];
export const SMS_SIGN_ID_SIDES = ['front', 'back'] as const;
export type SmsSignIdSide = (typeof SMS_SIGN_ID_SIDES)[number];
/** What customers see; `unsubmitted` and `disabled` are not used for signatures. */
export const SMS_SIGN_STATUSES = ['reviewing', 'passed', 'rejected'] as const;
export type SmsSignStatus = (typeof SMS_SIGN_STATUSES)[number];

/** Brackets of every kind, ASCII and full-width: carriers add 【】 themselves. */
const BRACKETS = /[()[\]{}<>（）【】［］｛｝〔〕〈〉《》「」『』〖〗〘〙〚〛⦅⦆｟｠＜＞﹙﹚﹛﹜﹝﹞]/u;
const ALLOWED = /^[A-Za-z0-9\p{Script=Han}]+$/u;

/**
 * Not a signature of anyone (product-spec §5 "no neutral or test signatures"). A short list, not
 * a carrier's full one: a name containing 测试 or made only of these words (digits aside) is
 * refused, so 测试, 短信通知, Test123 and 验证码 are, while 顺丰速运 and 测量仪器 are not.
 */
export const SMS_SIGN_NEUTRAL_WORDS = [
  '测试',
  'test',
  'demo',
  'sms',
  '验证码',
  '短信',
  '签名',
  '通知',
  '提醒',
  '消息',
  '公告',
  '客服',
  '系统',
  '服务',
  '平台',
  '官方',
  '营销',
  '推广',
  '校验码',
  '动态码',
] as const;

export function isNeutralSignName(name: string): boolean {
  const lower = name.toLowerCase();
  if (lower.includes('测试')) return true;
  let rest = lower.replace(/[0-9]/g, '');
  const words = [...SMS_SIGN_NEUTRAL_WORDS].sort((a, b) => b.length - a.length);
  let changed = true;
  while (rest && changed) {
    changed = false;
    for (const word of words) {
      if (rest.startsWith(word)) {
        rest = rest.slice(word.length);
        changed = true;
        break;
      }
    }
  }
  return rest === '';
}

/** The first rule a signature name breaks, in the order the form explains them; null if none. */
export function smsSignNameProblem(name: string): ValidationKey | null {
  if (name.trim() === '') return 'required';
  if (name.trim() !== name) return 'smsSignNameSpaces';
  if (BRACKETS.test(name)) return 'smsSignNameBrackets';
  if (!ALLOWED.test(name)) return 'smsSignNameChars';
  const length = [...name].length;
  if (length < SMS_SIGN_NAME_MIN || length > SMS_SIGN_NAME_MAX) return 'smsSignNameLength';
  if (/^[0-9]+$/.test(name)) return 'smsSignNameDigits';
  if (isNeutralSignName(name)) return 'smsSignNameNeutral';
  return null;
}

export const smsSignNameSchema = z.string(rule('required')).superRefine((name, ctx) => {
  const problem = smsSignNameProblem(name);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const smsSignTypeSchema = z.enum(SMS_SIGN_TYPES, rule('smsSignType'));

export const smsSignIdSchema = z.coerce
  .number(rule('invalid'))
  .int(rule('invalid'))
  .positive(rule('invalid'));

const fileId = smsSignIdSchema;

/** A person's name on a document: 2-30 Chinese characters or letters (a middle dot allowed). */
export const smsPersonNameSchema = z
  .string(rule('required'))
  .trim()
  .min(1, { ...rule('required'), abort: true })
  .regex(
    /^[\p{Script=Han}A-Za-z][\p{Script=Han}A-Za-z·. ]{0,28}[\p{Script=Han}A-Za-z.]$/u,
    rule('smsPersonName'),
  );

/** A mainland ID number, 15 or 18 digits with its checksum (product-spec §5). */
export const smsIdNumberSchema = z
  .string(rule('required'))
  .trim()
  .min(1, rule('required'))
  .transform((v) => v.toUpperCase())
  .refine(isValidIdNumber, rule('idNumberFormat'));

/**
 * A signature as the form sends it. The third-party fields count only when `thirdParty` is set:
 * the licence image, the legal person's name and ID number are then required, the ID document
 * image optional (its side says which face it shows). Files are ids of `/sms/uploads`.
 */
export const smsSignInputSchema = z
  .object({
    name: smsSignNameSchema,
    signType: smsSignTypeSchema,
    source: z.enum(SMS_SIGN_SOURCES, rule('smsSignSource')),
    thirdParty: z.boolean(rule('invalid')).default(false),
    licenseFileId: fileId.nullish(),
    legalPersonName: z.string(rule('invalid')).nullish(),
    legalPersonIdNumber: z.string(rule('invalid')).nullish(),
    idSide: z.enum(SMS_SIGN_ID_SIDES, rule('smsSignIdSide')).default('front'),
    idFileId: fileId.nullish(),
    attachmentIds: z
      .array(fileId, rule('invalid'))
      .max(SMS_SIGN_ATTACHMENTS_MAX, rule('smsSignAttachmentsMax'))
      .default([]),
  })
  .superRefine((input, ctx) => {
    if (!input.thirdParty) return;
    if (!input.licenseFileId) {
      ctx.addIssue({ code: 'custom', path: ['licenseFileId'], message: 'smsSignLicenseRequired' });
    }
    const name = smsPersonNameSchema.safeParse(input.legalPersonName ?? '');
    if (!name.success) {
      ctx.addIssue({
        code: 'custom',
        path: ['legalPersonName'],
        message: name.error.issues[0]?.message ?? 'invalid',
      });
    }
    const id = smsIdNumberSchema.safeParse(input.legalPersonIdNumber ?? '');
    if (!id.success) {
      ctx.addIssue({
        code: 'custom',
        path: ['legalPersonIdNumber'],
        message: id.error.issues[0]?.message ?? 'invalid',
      });
    }
  });
export type SmsSignInput = z.input<typeof smsSignInputSchema>;
export type SmsSignValues = z.output<typeof smsSignInputSchema>;

export const smsSignListQuerySchema = z.object({
  status: z.enum(SMS_SIGN_STATUSES, rule('invalid')).optional().catch(undefined),
  pageNum: z.coerce.number(rule('invalid')).int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number(rule('invalid')).int().min(1).max(100).default(20),
});
export type SmsSignListQuery = z.infer<typeof smsSignListQuerySchema>;

export const smsSignCheckQuerySchema = z.object({
  name: z.string().default(''),
  type: smsSignTypeSchema.default('domestic'),
});
export type SmsSignCheckQuery = z.infer<typeof smsSignCheckQuerySchema>;

/** Whether a name can be used for a new signature: its rule's message, or that it is taken. */
export interface SmsSignCheckResult {
  available: boolean;
  /** In the caller's language; null when available. */
  message: string | null;
}

export const SMS_COMPLIANCE_REASON_MAX = 200;

/** An operator's rejection of a signature or filing: the reason is required, the customer sees it. */
export const smsComplianceRejectSchema = z.object({
  reason: z
    .string(rule('smsComplianceReason'))
    .trim()
    .min(1, rule('smsComplianceReason'))
    .max(SMS_COMPLIANCE_REASON_MAX, rule('smsComplianceReason')),
});

/** Uploads for signatures and filings: png, jpg/jpeg or pdf, told by their bytes, 2 MB at most. */
export const SMS_UPLOAD_MAX_BYTES = 2 * 1024 * 1024;
export const SMS_UPLOAD_PURPOSES = ['sms_sign', 'sms_filing'] as const;
export type SmsUploadPurpose = (typeof SMS_UPLOAD_PURPOSES)[number];
export const SMS_UPLOAD_EXTENSIONS = ['png', 'jpg', 'jpeg', 'pdf'] as const;
export const smsUploadPurposeSchema = z.enum(SMS_UPLOAD_PURPOSES, rule('invalid'));

export interface SmsUploadView {
  id: number;
  name: string;
  contentType: 'image/png' | 'image/jpeg' | 'application/pdf';
  size: number;
}

export interface SmsSignView {
  id: number;
  name: string;
  signType: SmsSignType;
  source: SmsSignSource;
  thirdParty: boolean;
  licenseFile: SmsUploadView | null;
  legalPersonName: string | null;
  /** Masked for the customer (first 3 and last 4 characters); in full for the reviewing operator. */
  legalPersonIdNumber: string | null;
  idSide: SmsSignIdSide;
  idFile: SmsUploadView | null;
  attachments: SmsUploadView[];
  status: SmsSignStatus;
  rejectReason: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface SmsSignsPage {
  list: SmsSignView[];
  total: number;
}

/** A signature as the operators' review lists it. */
export interface SmsSignReviewView extends SmsSignView {
  accountId: number;
  accountName: string;
}
