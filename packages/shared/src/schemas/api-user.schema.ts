import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';

/**
 * API_USER forms and calls (product-spec §5, issue 5): the console's create/edit form, the key
 * reset, the default senders, and the SendCloud-compatible `apiuser/add`, all on one set of rules.
 * Console bodies are JSON; form posts carry booleans as `true`/`false`/`1`/`0` and ids as text.
 */
const rule = (key: ValidationKey) => ({ message: key });

/** API_USERs an account may have (product-spec §9; SendCloud answers 41112 past it). */
export const API_USER_MAX = 10;
export const API_USER_NAME_PATTERN = /^[A-Za-z0-9_@.-]{6,64}$/;
export const API_USER_EMAIL_TYPES = ['trigger', 'batch'] as const;
export type ApiUserEmailType = (typeof API_USER_EMAIL_TYPES)[number];
/** How long an old API_KEY stays valid beside the new one after a reset (product-spec §4). */
export const API_KEY_GRACE_MINUTES = [15, 30, 45, 60] as const;
export type ApiKeyGraceMinutes = (typeof API_KEY_GRACE_MINUTES)[number];

export const apiUserNameSchema = z
  .string(rule('required'))
  .trim()
  .regex(API_USER_NAME_PATTERN, rule('apiUserNameFormat'));

export const apiUserEmailTypeSchema = z.enum(API_USER_EMAIL_TYPES, rule('apiUserEmailType'));

const flag = z.preprocess(
  (v) => (v === 'true' || v === '1' || v === 1 ? true : v === 'false' || v === '0' || v === 0 ? false : v),
  z.boolean(rule('invalid')),
);

export const apiUserIdSchema = z.coerce
  .number(rule('invalid'))
  .int(rule('invalid'))
  .positive(rule('invalid'));

const domainIdSchema = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z.coerce.number(rule('apiUserDomainRequired')).int(rule('invalid')).positive(rule('apiUserDomainRequired')),
);

/** No label: null, empty or 0 (what a form sends when the select is cleared); omitted keeps it. */
const labelIdSchema = z.preprocess(
  (v) => (v === '' || v === null || v === 0 || v === '0' ? null : v),
  z.coerce.number(rule('invalid')).int(rule('invalid')).positive(rule('invalid')).nullable(),
);

/** Tracking switches; each defaults to on (a free account may not turn unsubscribe off). */
const trackingFields = {
  openTracking: flag.default(true),
  clickTracking: flag.default(true),
  unsubscribeTracking: flag.default(true),
};

export const apiUserCreateSchema = z.object({
  name: apiUserNameSchema,
  emailType: apiUserEmailTypeSchema,
  domainId: domainIdSchema,
  labelId: labelIdSchema.optional(),
  ...trackingFields,
});
export type ApiUserCreateInput = z.infer<typeof apiUserCreateSchema>;

/** The name and type are what clients authenticate and send as; the rest may change. */
export const apiUserUpdateSchema = z.object({
  domainId: domainIdSchema,
  labelId: labelIdSchema.optional(),
  ...trackingFields,
});
export type ApiUserUpdateInput = z.infer<typeof apiUserUpdateSchema>;

export const apiKeyResetSchema = z.object({
  apiUserId: apiUserIdSchema,
  expiresInMinutes: z.coerce
    .number(rule('apiKeyExpiry'))
    .refine((v) => (API_KEY_GRACE_MINUTES as readonly number[]).includes(v), rule('apiKeyExpiry')),
});
export type ApiKeyResetInput = z.infer<typeof apiKeyResetSchema>;

/** The account's default trigger or batch sender; null clears it. */
export const apiUserSenderSchema = z.object({
  apiUserId: z.preprocess((v) => (v === '' || v === undefined ? null : v), apiUserIdSchema.nullable()),
});

/** An API_KEY as the console lists it: never the key, only its last characters and lifetime. */
export interface ApiKeyView {
  hint: string;
  createdAt: number;
  /** Set once a reset replaced it: it works until then beside the new key. */
  expiresAt: number | null;
}

/** An API_USER as the console shows it (product-spec §3 "API_USER"). */
export interface ApiUserView {
  id: number;
  name: string;
  emailType: ApiUserEmailType;
  cType: 'normal' | 'test';
  domainId: number | null;
  domainName: string | null;
  domainStatus: 'unverified' | 'usable' | 'verified' | null;
  labelId: number | null;
  labelName: string | null;
  openTracking: boolean;
  clickTracking: boolean;
  unsubscribeTracking: boolean;
  createdAt: number;
  updatedAt: number;
  keys: ApiKeyView[];
}

/** What a creation or a reset hands back: the key, this once. */
export interface IssuedKey {
  apiUser: ApiUserView;
  apiKey: string;
}

export type SenderKind = ApiUserEmailType;

/** What `resetKey` answers: the new key, and when the old one stops working. */
export type ReissuedKey = IssuedKey & { oldKeyExpiresAt: number };

/** The default-sender paths (`/config/categories/{triggerSender, batchSender}`) and the kind each sets. */
export const DEFAULT_SENDER_PATHS = {
  triggerSender: 'trigger',
  batchSender: 'batch',
} as const satisfies Record<string, SenderKind>;
export type DefaultSenderPath = keyof typeof DEFAULT_SENDER_PATHS;

/** A domain an API_USER may be bound to (`/config/categories/domains`): usable or verified. */
export interface BindableDomainView {
  id: number;
  name: string;
  status: 'usable' | 'verified';
}

/** One entry of the API_USER picker (`/config/categories/combobox`). */
export interface ApiUserOption {
  value: number;
  label: string;
  emailType: ApiUserEmailType;
}
