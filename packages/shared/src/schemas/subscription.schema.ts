import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';
import { SEND_ADDRESS_PATTERN } from './send.schema.ts';

/**
 * Email subscriptions (product-spec §3 "Subscription relation: name, logo URL, confirmation email
 * title/subject, from name, from address, API_USER, API_KEY, linked address list, confirmation
 * required, display mode, theme colour, update time"; §4 double opt-in; §5 "name, logo URL, title,
 * from name, from address (valid email), API_USER, address list, API_KEY required"; console
 * `/sendRelative/subscription*`, calls `/subInvite/*`). The API_KEY proves the customer may send
 * as the API_USER and is never kept; the public page (`/subscriptionInvite?id=<publicId>`) and
 * its form are the same for every display mode, the mode decides how the snippet shows them.
 */
const rule = (key: ValidationKey) => ({ message: key });

export const SUBSCRIPTION_NAME_MAX = 64;
export const SUBSCRIPTION_SUBJECT_MAX = 200;
export const SUBSCRIPTION_FROM_NAME_MAX = 64;
export const SUBSCRIPTION_URL_MAX = 500;
export const SUBSCRIBER_NAME_MAX = 64;
export const SUBSCRIBER_ADDRESS_MAX = 254;
/** How long a confirmation link is good for. */
export const SUBSCRIPTION_CONFIRM_TTL_MS = 72 * 3_600_000;

export const SUBSCRIPTION_DISPLAY_MODES = ['newTab', 'embedded', 'popup', 'bottomBar', 'topBar'] as const;
export type SubscriptionDisplayMode = (typeof SUBSCRIPTION_DISPLAY_MODES)[number];
export const SUBSCRIPTION_DEFAULT_COLOUR = '#1677ff';

const required = (key: ValidationKey, max: number) =>
  z.string(rule(key)).trim().min(1, rule(key)).max(max, rule('lengthExceeded'));

export const subscriptionIdSchema = z.coerce
  .number(rule('invalid'))
  .int(rule('invalid'))
  .positive(rule('invalid'));

export const subscriptionFields = {
  name: required('subscriptionName', SUBSCRIPTION_NAME_MAX),
  logoUrl: required('subscriptionLogoUrl', SUBSCRIPTION_URL_MAX).refine(
    (v) => v === '' || (/^https?:\/\/[^\s/?#]+[^\s]*$/i.test(v) && URL.canParse(v)),
    rule('subscriptionLogoUrl'),
  ),
  subject: required('subscriptionSubject', SUBSCRIPTION_SUBJECT_MAX),
  fromName: required('subscriptionFromName', SUBSCRIPTION_FROM_NAME_MAX),
  fromAddress: z
    .string(rule('subscriptionFromAddress'))
    .trim()
    .min(1, rule('subscriptionFromAddress'))
    .max(SUBSCRIBER_ADDRESS_MAX, rule('emailFormat'))
    .regex(SEND_ADDRESS_PATTERN, rule('emailFormat')),
  apiUser: required('subscriptionApiUser', 64),
  apiKey: required('subscriptionApiKey', 128),
  listId: z.coerce
    .number(rule('subscriptionList'))
    .int(rule('subscriptionList'))
    .positive(rule('subscriptionList')),
  confirm: z.boolean(rule('invalid')).default(true),
  displayMode: z.enum(SUBSCRIPTION_DISPLAY_MODES, rule('subscriptionDisplayMode')).default('embedded'),
  themeColor: z
    .string(rule('subscriptionThemeColor'))
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, rule('subscriptionThemeColor'))
    .transform((v) => v.toLowerCase())
    .default(SUBSCRIPTION_DEFAULT_COLOUR),
};

/** The console's new subscription: every field, the API_KEY included. */
export const subscriptionInputSchema = z.object(subscriptionFields);
export type SubscriptionInput = z.input<typeof subscriptionInputSchema>;
export type SubscriptionValues = z.output<typeof subscriptionInputSchema>;

/**
 * A change: the API_KEY may be left empty while the API_USER stays the same (it was proved when
 * the subscription was saved); naming another API_USER needs its key (the server says so).
 */
export const subscriptionUpdateSchema = z.object({
  ...subscriptionFields,
  apiKey: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    subscriptionFields.apiKey.optional(),
  ),
});
export type SubscriptionUpdateInput = z.input<typeof subscriptionUpdateSchema>;
export type SubscriptionUpdateValues = z.output<typeof subscriptionUpdateSchema>;

export const subscriptionQuerySchema = z.object({
  name: z.string().trim().max(SUBSCRIPTION_NAME_MAX).optional().catch(undefined),
  pageNum: z.coerce.number(rule('invalid')).int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number(rule('invalid')).int().min(1).max(100).default(20),
});

/** The subscriber's form on the public page. */
export const subscribeInputSchema = z.object({
  id: z.string(rule('invalid')).trim().min(1, rule('invalid')).max(64, rule('invalid')),
  email: z
    .string(rule('emailFormat'))
    .trim()
    .min(1, rule('emailFormat'))
    .max(SUBSCRIBER_ADDRESS_MAX, rule('emailFormat'))
    .regex(SEND_ADDRESS_PATTERN, rule('emailFormat')),
  name: z.string(rule('invalid')).trim().max(SUBSCRIBER_NAME_MAX, rule('lengthExceeded')).default(''),
  captchaId: z
    .string(rule('captchaRequired'))
    .min(1, rule('captchaRequired'))
    .max(64, rule('captchaRequired')),
  code: z
    .string(rule('captchaRequired'))
    .trim()
    .min(1, rule('captchaRequired'))
    .max(16, rule('captchaRequired')),
});
export type SubscribeInput = z.input<typeof subscribeInputSchema>;

export interface SubscriptionView {
  id: number;
  /** The public page's `id`: not the row's number, so pages cannot be enumerated. */
  publicId: string;
  name: string;
  logoUrl: string;
  subject: string;
  fromName: string;
  fromAddress: string;
  apiUser: string;
  listId: number;
  /** Null when the list has been deleted since. */
  listName: string | null;
  listAddress: string | null;
  confirm: boolean;
  displayMode: SubscriptionDisplayMode;
  themeColor: string;
  createdAt: number;
  updatedAt: number;
}

export interface SubscriptionsPage {
  list: SubscriptionView[];
  total: number;
}

/** What the public page shows; `available: false` once the subscription is deleted. */
export interface PublicSubscriptionView {
  available: boolean;
  name: string;
  logoUrl: string;
  displayMode: SubscriptionDisplayMode;
  themeColor: string;
}

/** The form's outcome: `pending` when a confirmation mail went out, `subscribed` when it took effect. */
export interface SubscribeResult {
  status: 'pending' | 'subscribed';
}
