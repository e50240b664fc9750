import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';

/**
 * Email templates (product-spec §5, issue 5): the one schema the console form, the console API
 * and the SendCloud-compatible `template/*` calls validate with. The HTML is kept exactly as
 * written (nothing is sanitised away): it is only ever shown in a sandboxed frame, and it is
 * what the mail will carry.
 */
const rule = (key: ValidationKey) => ({ message: key });

export const TEMPLATE_NAME_PATTERN = /^[A-Za-z0-9_]{1,64}$/;
export const TEMPLATE_INVOKE_NAME_PATTERN = /^[A-Za-z0-9_]{1,128}$/;
export const TEMPLATE_TYPES = ['batch', 'trigger'] as const;
export const TEMPLATE_EDITORS = ['richtext', 'dragdrop'] as const;
export const TEMPLATE_STATUSES = ['unsubmitted', 'reviewing', 'passed', 'rejected'] as const;
/** SendCloud 40219: at most 50 templates per account. */
export const TEMPLATE_MAX = 50;
export const TEMPLATE_SUBJECT_MAX = 255;
/** contentSummary: at most 200 bytes (UTF-8). */
export const TEMPLATE_SUMMARY_MAX_BYTES = 200;
export const TEMPLATE_HTML_MAX = 2_000_000;
export const TEMPLATE_DESIGN_MAX = 4_000_000;
export const TEMPLATE_REJECT_REASON_MAX = 500;

export type TemplateType = (typeof TEMPLATE_TYPES)[number];
export type TemplateEditor = (typeof TEMPLATE_EDITORS)[number];
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

export function utf8Bytes(value: string): number {
  return new TextEncoder().encode(value).length;
}

/**
 * The `%variable%` placeholders a template uses, in order of first use, without duplicates.
 * A name is letters, digits, underscore, dot or hyphen, so "50% off, 20% more" names none.
 */
export function templateVariables(...texts: (string | null | undefined)[]): string[] {
  const found = new Set<string>();
  for (const text of texts) {
    for (const match of (text ?? '').matchAll(/%([A-Za-z0-9_.-]+)%/g)) found.add(match[1] as string);
  }
  return [...found];
}

function isJson(value: string): boolean {
  try {
    JSON.parse(value);
    return true;
  } catch {
    return false;
  }
}

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

export const templateNameSchema = z
  .string(rule('required'))
  .trim()
  .min(1, rule('required'))
  .regex(TEMPLATE_NAME_PATTERN, rule('templateNameFormat'));

export const templateInvokeNameSchema = z
  .string(rule('required'))
  .trim()
  .min(1, rule('required'))
  .regex(TEMPLATE_INVOKE_NAME_PATTERN, rule('templateInvokeNameFormat'));

export const templateTypeSchema = z.enum(TEMPLATE_TYPES, rule('templateType'));
export const templateEditorSchema = z.enum(TEMPLATE_EDITORS, rule('templateEditor'));
export const templateStatusSchema = z.enum(TEMPLATE_STATUSES, rule('invalid'));

/** Every field of a template, as the form submits it and as the core stores it. */
export const templateInputSchema = z
  .object({
    name: templateNameSchema,
    invokeName: templateInvokeNameSchema,
    templateType: templateTypeSchema,
    editor: z.preprocess(emptyToUndefined, templateEditorSchema.default('richtext')),
    subject: z
      .string(rule('required'))
      .trim()
      .min(1, rule('required'))
      .max(TEMPLATE_SUBJECT_MAX, rule('lengthExceeded')),
    summary: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .refine((v) => utf8Bytes(v) <= TEMPLATE_SUMMARY_MAX_BYTES, rule('templateSummaryTooLong'))
        .optional(),
    ),
    html: z
      .string(rule('required'))
      .refine((v) => v.trim().length > 0, rule('required'))
      .refine((v) => v.length <= TEMPLATE_HTML_MAX, rule('lengthExceeded')),
    plain: z.preprocess(
      emptyToUndefined,
      z.string().max(TEMPLATE_HTML_MAX, rule('lengthExceeded')).optional(),
    ),
    /** The drag-and-drop editor's project as JSON; kept only for dragdrop templates. */
    design: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .max(TEMPLATE_DESIGN_MAX, rule('lengthExceeded'))
        .refine(isJson, rule('templateDesign'))
        .optional(),
    ),
  })
  .transform((v) => (v.editor === 'dragdrop' ? v : { ...v, design: undefined }));

export type TemplateInput = z.output<typeof templateInputSchema>;
/** What the form holds before parsing. */
export type TemplateFormValues = z.input<typeof templateInputSchema>;

export const templateIdSchema = z.coerce
  .number(rule('invalid'))
  .int(rule('invalid'))
  .positive(rule('invalid'));

export const templateIdsSchema = z.object({
  ids: z.array(templateIdSchema, rule('required')).min(1, rule('required')).max(100, rule('lengthExceeded')),
});

export const templateListQuerySchema = z.object({
  name: z.preprocess(emptyToUndefined, z.string().trim().max(128, rule('lengthExceeded')).optional()),
  templateType: z.preprocess(emptyToUndefined, templateTypeSchema.optional()),
  status: z.preprocess(emptyToUndefined, templateStatusSchema.optional()),
});

export type TemplateListQuery = z.output<typeof templateListQuerySchema>;

export const templateRejectSchema = z.object({
  reason: z
    .string(rule('templateRejectReason'))
    .trim()
    .min(1, rule('templateRejectReason'))
    .max(TEMPLATE_REJECT_REASON_MAX, rule('templateRejectReason')),
});

/** A template in a list (console-spec §7 `/mail/templates`). */
export interface TemplateView {
  id: number;
  name: string;
  invokeName: string;
  templateType: TemplateType;
  editor: 'richtext' | 'dragdrop';
  subject: string;
  summary: string | null;
  status: TemplateStatus;
  rejectReason: string | null;
  submittedAt: number | null;
  reviewedAt: number | null;
  lastUsedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** One template with its content, for the editors and the preview. */
export interface TemplateDetail extends TemplateView {
  html: string;
  plain: string | null;
  design: string | null;
  /** The `%variable%` placeholders of the subject and the HTML. */
  variables: string[];
}

/** A template in the operators' review list: whose it is. */
export interface TemplateReviewView extends TemplateView {
  accountId: number;
  accountName: string;
}

export interface TemplateReviewDetail extends TemplateDetail {
  accountId: number;
  accountName: string;
}
