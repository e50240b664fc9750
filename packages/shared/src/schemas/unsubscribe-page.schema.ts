import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';

/**
 * Unsubscribe pages (product-spec §3 "Unsubscribe page: name, logo URL, page background, form
 * background, text colour, confirm and cancel button colours and text colours, language (Chinese,
 * English, both), jump URL, reasons"; §5 "URLs (logo, …) must begin with http(s)"). The designer
 * form of the console and `/config/unsubscribePage` parse with these schemas, so a rule is
 * written once. A page is what a recipient sees at the List-Unsubscribe link of batch mail.
 */
const rule = (key: ValidationKey) => ({ message: key });

export const UNSUBSCRIBE_LANGUAGES = ['zh-cn', 'en', 'both'] as const;
export type UnsubscribeLanguage = (typeof UNSUBSCRIBE_LANGUAGES)[number];
/** The reasons a recipient may pick, in the order the page lists them. */
export const UNSUBSCRIBE_REASONS = ['not_wanted', 'not_subscribed', 'spam', 'fraud'] as const;
export type UnsubscribeReason = (typeof UNSUBSCRIBE_REASONS)[number];
/** Pages per account: a handful of designs (per brand or per API_USER) is what anyone needs. */
export const UNSUBSCRIBE_PAGES_MAX = 10;
export const UNSUBSCRIBE_PAGE_NAME_MAX = 64;
export const UNSUBSCRIBE_URL_MAX = 1024;

const COLOUR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
const colour = z
  .string(rule('unsubscribePageColour'))
  .trim()
  .regex(COLOUR, rule('unsubscribePageColour'))
  .transform((v) => v.toLowerCase());

/** An optional http(s) URL: empty means none. */
const optionalUrl = (key: ValidationKey) =>
  z.preprocess(
    (v) => (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? null : v),
    z
      .string(rule(key))
      .trim()
      .max(UNSUBSCRIBE_URL_MAX, rule(key))
      .refine((v) => /^https?:\/\/[^\s/?#]+[^\s]*$/i.test(v) && URL.canParse(v), rule(key))
      .nullable(),
  );

export const unsubscribePageInputSchema = z.object({
  name: z
    .string(rule('unsubscribePageNameRequired'))
    .trim()
    .min(1, rule('unsubscribePageNameRequired'))
    .max(UNSUBSCRIBE_PAGE_NAME_MAX, rule('unsubscribePageNameLength')),
  logoUrl: optionalUrl('unsubscribePageLogoUrl'),
  pageBackground: colour,
  formBackground: colour,
  textColor: colour,
  confirmBackground: colour,
  confirmTextColor: colour,
  cancelBackground: colour,
  cancelTextColor: colour,
  language: z.enum(UNSUBSCRIBE_LANGUAGES, rule('unsubscribePageLanguage')),
  reasons: z
    .array(z.enum(UNSUBSCRIBE_REASONS, rule('unsubscribePageReasons')), rule('unsubscribePageReasons'))
    .min(1, rule('unsubscribePageReasons'))
    .transform((list) => UNSUBSCRIBE_REASONS.filter((r) => list.includes(r))),
  jumpUrl: optionalUrl('unsubscribePageJumpUrl'),
});
export type UnsubscribePageInput = z.input<typeof unsubscribePageInputSchema>;
export type UnsubscribePageDesign = z.output<typeof unsubscribePageInputSchema>;

/** The built-in page, shown when the account designed none (and the designer's starting point). */
export const DEFAULT_UNSUBSCRIBE_PAGE: UnsubscribePageDesign = {
  name: 'Default',
  logoUrl: null,
  pageBackground: '#f0f2f5',
  formBackground: '#ffffff',
  textColor: '#333333',
  confirmBackground: '#1677ff',
  confirmTextColor: '#ffffff',
  cancelBackground: '#ffffff',
  cancelTextColor: '#333333',
  language: 'both',
  reasons: [...UNSUBSCRIBE_REASONS],
  jumpUrl: null,
};

export const unsubscribePageIdSchema = z.coerce
  .number(rule('invalid'))
  .int(rule('invalid'))
  .positive(rule('invalid'));

/**
 * Which page is in use (`/config/unsubscribeConfig`): for the whole account, or for one API_USER
 * (overriding the account's). `pageId` null (or left out) means the built-in page.
 */
export const unsubscribeConfigInputSchema = z.object({
  pageId: unsubscribePageIdSchema.nullable().default(null),
  apiUserId: unsubscribePageIdSchema.nullable().optional(),
});
export type UnsubscribeConfigInput = z.infer<typeof unsubscribeConfigInputSchema>;

/** A saved design as the console lists and edits it. */
export type UnsubscribePageView = UnsubscribePageDesign & {
  id: number;
  createdAt: number;
  updatedAt: number;
};

/** The designs of the account and how many it may have. */
export interface UnsubscribePagesView {
  pages: UnsubscribePageView[];
  max: number;
}

/** A page as recipients see it (server-rendered HTML); a draft's preview has no name. */
export interface UnsubscribePagePreview {
  name: string;
  html: string;
}

/** Which page is in use: the account's (null = built-in) and each API_USER's own choice. */
export interface UnsubscribeConfigView {
  pageId: number | null;
  apiUsers: { apiUserId: number; pageId: number }[];
}
