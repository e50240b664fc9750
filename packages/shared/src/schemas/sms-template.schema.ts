import { z } from 'zod';
import {
  renderSmsTemplate,
  SMS_CONTENT_MAX,
  SMS_TEMPLATE_NAME_MAX,
  type SmsContentRule,
  smsContentProblem,
  smsPlaceholders,
  smsTextProblem,
  smsVarValueProblem,
} from '../sms/sms-content.ts';
import { countSms, type SmsCount, signedSmsText } from '../sms/sms-count.ts';
import {
  isMmsPageEmpty,
  MMS_AUDIO_TYPES,
  MMS_IMAGE_TYPES,
  MMS_MAX_BYTES,
  MMS_PAGES_MAX,
  MMS_TITLE_MAX,
  type MmsPage,
  mediaMatchesType,
  mmsBytes,
} from '../sms/sms-mms.ts';
import type { ValidationKey } from '../validation.ts';

/**
 * SMS, voice and MMS templates (product-spec §3-§5; console `/s_sendRelative/template`, calls
 * `/sms/smsTemplates`). One schema checks the console's forms and the server's requests: the
 * content rules live in ../sms/sms-content.ts, the MMS limits in ../sms/sms-mms.ts. A new or
 * edited template is unsubmitted; submitted, it waits for the platform operator's review.
 *
 * Storage: an SMS's or voice call's text is `content`; an MMS keeps its title in `content` and
 * its pages (text and base64 media) in `pages`.
 */
const rule = (key: ValidationKey) => ({ message: key });

export const SMS_TEMPLATE_KINDS = ['sms', 'voice', 'mms'] as const;
export type SmsTemplateKind = (typeof SMS_TEMPLATE_KINDS)[number];
export const SMS_TEMPLATE_TYPES = ['code', 'notice', 'marketing'] as const;
export type SmsTemplateType = (typeof SMS_TEMPLATE_TYPES)[number];
export const SMS_TEMPLATE_REGIONS = ['domestic', 'international'] as const;
export type SmsTemplateRegion = (typeof SMS_TEMPLATE_REGIONS)[number];
export const SMS_TEMPLATE_STATUSES = ['unsubmitted', 'reviewing', 'passed', 'rejected'] as const;
export type SmsTemplateStatus = (typeof SMS_TEMPLATE_STATUSES)[number];
/** A voice template's one variable: the verification code read out, 4-6 digits. */
export const VOICE_CODE_VARIABLE = 'code';
export const VOICE_CODE_PATTERN = /^[0-9]{4,6}$/;

const NAME_PATTERN = new RegExp(`^[A-Za-z0-9_]{1,${SMS_TEMPLATE_NAME_MAX}}$`);

export const smsTemplateIdSchema = z.coerce
  .number(rule('invalid'))
  .int(rule('invalid'))
  .positive(rule('invalid'));

export const smsTemplateNameSchema = z
  .string(rule('required'))
  .trim()
  .min(1, { ...rule('required'), abort: true })
  .regex(NAME_PATTERN, rule('smsTemplateName'));

export const smsTemplateTypeSchema = z.enum(SMS_TEMPLATE_TYPES, rule('smsTemplateType'));
export const smsTemplateRegionSchema = z.enum(SMS_TEMPLATE_REGIONS, rule('smsTemplateRegion'));
const signIdSchema = z.coerce
  .number(rule('smsTemplateSign'))
  .int(rule('smsTemplateSign'))
  .positive(rule('smsTemplateSign'));

/** The content field of an SMS template, whose rules depend on its type (marketing needs the opt-out). */
export function smsContentSchema(smsType: SmsTemplateType) {
  return z.string(rule('required')).superRefine((content, ctx) => {
    const problem = smsContentProblem(content, smsType);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
}

/** A variable's example: given, at most 32 characters, no link. */
export const smsVarExampleSchema = z.string(rule('smsVarExampleRequired')).superRefine((value, ctx) => {
  if (value.trim() === '') ctx.addIssue({ code: 'custom', message: 'smsVarExampleRequired' });
  else if (smsVarValueProblem(value)) ctx.addIssue({ code: 'custom', message: 'smsVarExample' });
});

const variablesSchema = z.record(z.string(), z.string(rule('invalid'))).default({});

type Ctx = z.RefinementCtx;

/** Every placeholder of `texts` has a valid example; the issues name `variables.<name>`. */
function checkExamples(texts: string[], variables: Record<string, string>, ctx: Ctx): void {
  const names = new Set(texts.flatMap((text) => smsPlaceholders(text).names));
  for (const name of names) {
    const result = smsVarExampleSchema.safeParse(variables[name] ?? '');
    if (!result.success) {
      ctx.addIssue({
        code: 'custom',
        path: ['variables', name],
        message: result.error.issues[0]?.message ?? 'invalid',
      });
    }
  }
}

function issue(ctx: Ctx, path: (string | number)[], message: SmsContentRule | ValidationKey): void {
  ctx.addIssue({ code: 'custom', path, message });
}

const smsInput = z
  .object({
    kind: z.literal('sms'),
    name: smsTemplateNameSchema,
    smsType: smsTemplateTypeSchema,
    region: smsTemplateRegionSchema.default('domestic'),
    signId: signIdSchema,
    content: z.string(rule('required')).trim(),
    variables: variablesSchema,
    trackLinks: z.boolean(rule('invalid')).default(false),
  })
  .superRefine((input, ctx) => {
    const problem = smsContentProblem(input.content, input.smsType);
    if (problem) issue(ctx, ['content'], problem);
    else checkExamples([input.content], input.variables, ctx);
  });

/** The content rule of a voice template: its text rules, and %code% as its one variable, once. */
export function voiceContentProblem(content: string): SmsContentRule | 'smsVoiceCode' | null {
  if (content.trim() === '') return 'required';
  if ([...content].length > SMS_CONTENT_MAX) return 'smsContentLength';
  const problem = smsTextProblem(content);
  if (problem) return problem;
  const { names } = smsPlaceholders(content);
  const uses = content.split(`%${VOICE_CODE_VARIABLE}%`).length - 1;
  if (names.length !== 1 || names[0] !== VOICE_CODE_VARIABLE || uses !== 1) return 'smsVoiceCode';
  return null;
}

export const voiceContentSchema = z.string(rule('required')).superRefine((content, ctx) => {
  const problem = voiceContentProblem(content);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const voiceCodeExampleSchema = z
  .string(rule('smsVoiceCodeExample'))
  .regex(VOICE_CODE_PATTERN, rule('smsVoiceCodeExample'));

const voiceInput = z
  .object({
    kind: z.literal('voice'),
    name: smsTemplateNameSchema,
    signId: signIdSchema.nullable().optional(),
    content: z.string(rule('required')).trim(),
    variables: variablesSchema,
  })
  .superRefine((input, ctx) => {
    const problem = voiceContentProblem(input.content);
    if (problem) issue(ctx, ['content'], problem);
    else if (!VOICE_CODE_PATTERN.test(input.variables[VOICE_CODE_VARIABLE] ?? '')) {
      issue(ctx, ['variables', VOICE_CODE_VARIABLE], 'smsVoiceCodeExample');
    }
  });

const mediaSchema = z.object({
  name: z.string(rule('invalid')).max(200, rule('lengthExceeded')),
  type: z.string(rule('invalid')),
  data: z.string(rule('invalid')),
});

export const mmsPageSchema = z.object({
  text: z.string(rule('invalid')).optional(),
  image: mediaSchema.optional(),
  audio: mediaSchema.optional(),
});

export const mmsTitleSchema = z
  .string(rule('smsMmsTitle'))
  .trim()
  .min(1, { ...rule('smsMmsTitle'), abort: true })
  .max(MMS_TITLE_MAX, { ...rule('smsMmsTitle'), abort: true })
  .superRefine((title, ctx) => {
    const problem = smsTextProblem(title);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** The first rule one MMS page breaks, with the field it concerns; null when the page is fine. */
export function mmsPageProblem(
  page: MmsPage,
): { field: 'text' | 'image' | 'audio'; rule: ValidationKey } | null {
  if (isMmsPageEmpty(page)) return { field: 'text', rule: 'smsMmsPageEmpty' };
  const text = page.text ?? '';
  if ([...text].length > SMS_CONTENT_MAX) return { field: 'text', rule: 'smsMmsPageText' };
  const problem = smsTextProblem(text);
  if (problem) return { field: 'text', rule: problem };
  if (
    page.image &&
    (!(MMS_IMAGE_TYPES as readonly string[]).includes(page.image.type) || !mediaMatchesType(page.image))
  )
    return { field: 'image', rule: 'smsMmsImage' };
  if (
    page.audio &&
    (!(MMS_AUDIO_TYPES as readonly string[]).includes(page.audio.type) || !mediaMatchesType(page.audio))
  )
    return { field: 'audio', rule: 'smsMmsAudio' };
  return null;
}

const mmsInput = z
  .object({
    kind: z.literal('mms'),
    name: smsTemplateNameSchema,
    smsType: z.enum(['notice', 'marketing'], rule('smsTemplateType')),
    signId: signIdSchema,
    title: mmsTitleSchema,
    pages: z.array(mmsPageSchema, rule('smsMmsPages')),
    variables: variablesSchema,
  })
  .superRefine((input, ctx) => {
    if (input.pages.length === 0 || input.pages.length > MMS_PAGES_MAX) {
      issue(ctx, ['pages'], 'smsMmsPages');
      return;
    }
    let broken = false;
    input.pages.forEach((page, index) => {
      const problem = mmsPageProblem(page);
      if (problem) {
        broken = true;
        issue(ctx, ['pages', index, problem.field], problem.rule);
      }
    });
    if (broken) return;
    if (mmsBytes(input.title, input.pages) >= MMS_MAX_BYTES) issue(ctx, ['pages'], 'smsMmsSize');
    checkExamples([input.title, ...input.pages.map((p) => p.text ?? '')], input.variables, ctx);
  });

/** A template as created or replaced: the fields of its kind. */
export const smsTemplateInputSchema = z.discriminatedUnion(
  'kind',
  [smsInput, voiceInput, mmsInput],
  rule('invalid'),
);
export type SmsTemplateInput = z.input<typeof smsTemplateInputSchema>;
export type SmsTemplateValues = z.output<typeof smsTemplateInputSchema>;
export type SmsInputValues = z.output<typeof smsInput>;
export type VoiceInputValues = z.output<typeof voiceInput>;
export type MmsInputValues = z.output<typeof mmsInput>;

const optionalFilter = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional().catch(undefined));

export const smsTemplateListQuerySchema = z.object({
  kind: optionalFilter(z.enum(SMS_TEMPLATE_KINDS)),
  status: optionalFilter(z.enum(SMS_TEMPLATE_STATUSES)),
  smsType: optionalFilter(z.enum(SMS_TEMPLATE_TYPES)),
  name: optionalFilter(z.string().trim().max(SMS_TEMPLATE_NAME_MAX)),
  pageNum: z.coerce
    .number(rule('invalid'))
    .int(rule('invalid'))
    .min(1, rule('invalid'))
    .max(100_000)
    .default(1),
  pageSize: z.coerce
    .number(rule('invalid'))
    .int(rule('invalid'))
    .min(1, rule('invalid'))
    .max(100)
    .default(20),
});
export type SmsTemplateListQuery = z.infer<typeof smsTemplateListQuerySchema>;

/** A template as the console shows it. `pages` is null in lists (their media can be large). */
export interface SmsTemplateView {
  id: number;
  name: string;
  kind: SmsTemplateKind;
  region: SmsTemplateRegion;
  smsType: SmsTemplateType;
  /** The SMS or voice text; an MMS's title. */
  content: string;
  /** Variable name → example. */
  variables: Record<string, string>;
  pages: MmsPage[] | null;
  /** An MMS's page count and size in bytes (title, texts and media); null for SMS and voice. */
  mms: { pageCount: number; bytes: number } | null;
  signId: number | null;
  signName: string | null;
  signStatus: SmsTemplateStatus | 'disabled' | null;
  trackLinks: boolean;
  status: SmsTemplateStatus;
  rejectReason: string | null;
  lastSentAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface SmsTemplatesPage {
  list: SmsTemplateView[];
  total: number;
}

/** A signature the template form offers: the account's own, of either region. */
export interface SmsTemplateSignOption {
  id: number;
  name: string;
  signType: SmsTemplateRegion;
  status: SmsTemplateStatus | 'disabled';
}

/** What the handset shows with the examples in place: the text with its signature and its count. */
export interface SmsTemplatePreview {
  kind: SmsTemplateKind;
  text: string;
  /** How an SMS is counted and cut; null for voice and MMS. */
  count: SmsCount | null;
  /** MMS only: the pages with their texts filled. */
  pages: MmsPage[] | null;
}

export function previewSmsTemplate(template: {
  kind: SmsTemplateKind;
  region: SmsTemplateRegion;
  content: string;
  variables: Record<string, string>;
  signName: string | null;
  pages?: MmsPage[] | null;
}): SmsTemplatePreview {
  const filled = renderSmsTemplate(template.content, template.variables);
  if (template.kind === 'voice') return { kind: 'voice', text: filled, count: null, pages: null };
  if (template.kind === 'mms') {
    return {
      kind: 'mms',
      text: signedSmsText(filled, template.signName),
      count: null,
      pages: (template.pages ?? []).map((page) => ({
        ...page,
        ...(page.text !== undefined ? { text: renderSmsTemplate(page.text, template.variables) } : {}),
      })),
    };
  }
  const count = countSms(filled, template.signName, template.region);
  return { kind: 'sms', text: count.text, count, pages: null };
}

/** A template in the operators' review list, across accounts. */
export interface SmsTemplateReviewView extends SmsTemplateView {
  accountId: number;
  accountName: string;
  /** The content with its signature and examples, as the handset would show it. */
  preview: SmsTemplatePreview;
}
