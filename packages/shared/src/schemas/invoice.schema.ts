import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';
import { yuanToFen } from './recharge.schema.ts';

/**
 * Invoices (fapiao; issue 18, product-spec §3 "Invoice info", §4, §8, §9; reference
 * payments-and-identity §4.4, §5; console `/accountSetting/financialMangement/createTicketInfo`,
 * `/ticket`, `/applyTicket`). An account keeps one invoice profile (the buyer's title, taxpayer ID,
 * bank, address and phone) and applies for invoices against what it has recharged; an operator
 * issues, ships, e-mails, rejects or voids them. The server's rules are in
 * `server/src/core/invoices/invoices.service.ts`.
 */
const rule = (key: ValidationKey) => ({ message: key });

/**
 * applied (to be invoiced) → invoiced (to be shipped) → shipped (express number) or emailed;
 * applied → rejected (with a reason; the customer edits and resubmits: applied again);
 * applied, invoiced, shipped, emailed or rejected → voided.
 */
export const INVOICE_STATUSES = ['applied', 'invoiced', 'shipped', 'emailed', 'rejected', 'voided'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
/** Statuses whose amount no longer counts against the invoiceable amount. */
export const INVOICE_RELEASED_STATUSES = ['rejected', 'voided'] as const satisfies readonly InvoiceStatus[];
/** VAT ordinary (paper), VAT special (paper, general taxpayers only), electronic (a PDF by e-mail). */
export const INVOICE_TYPES = ['ordinary', 'vat_special', 'electronic'] as const;
export type InvoiceType = (typeof INVOICE_TYPES)[number];
export const INVOICE_MATERIALS = ['paper', 'electronic'] as const;
export type InvoiceMaterial = (typeof INVOICE_MATERIALS)[number];
/** post: express at the customer's cost (free from 2,000 yuan); cod: pay on arrival; email. */
export const INVOICE_DELIVERIES = ['post', 'cod', 'email'] as const;
export type InvoiceDelivery = (typeof INVOICE_DELIVERIES)[number];
/** All the amount on one invoice, or split into several (the operator decides the split). */
export const INVOICE_METHODS = ['all_in_one', 'separate'] as const;
export type InvoiceMethod = (typeof INVOICE_METHODS)[number];

/** SF Express postage of a paper invoice by post (reference §5). */
export const INVOICE_POSTAGE_FEN = 1800;
/** product-spec §9: invoices of 2,000 yuan or more ship free. */
export const INVOICE_FREE_SHIPPING_FEN = 200_000;
/**
 * The most one electronic invoice may carry: Herald's reading of product-spec §8 "The balance of
 * electronic invoice is insufficient, please select paper invoice" is the e-invoice quota per
 * invoice (单张开票限额) the tax authority grants an issuer; more than this goes on paper.
 */
export const INVOICE_ELECTRONIC_MAX_FEN = 1_000_000;

/** The postage an application pays: only paper by post under 2,000 yuan. */
export function invoicePostageFen(input: { delivery: InvoiceDelivery; amountFen: number }): number {
  return input.delivery === 'post' && input.amountFen < INVOICE_FREE_SHIPPING_FEN ? INVOICE_POSTAGE_FEN : 0;
}

const FULL_WIDTH = /[\uFF01-\uFF5E]/g;

/** Trim, drop spaces and '-', full-width to half-width, upper case (reference §4.3). */
export function normalizeTaxpayerId(value: string): string {
  return value
    .replace(FULL_WIDTH, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(/[\s\u3000-]/g, '')
    .toUpperCase();
}

const USCC_ALPHABET = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const USCC_SHAPE = /^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/;

/** The Unified Social Credit Code's check character (GB 32100-2015; reference §4.3). */
export function isValidUscc(code: string): boolean {
  if (!USCC_SHAPE.test(code)) return false;
  let sum = 0;
  let weight = 1;
  for (let i = 0; i < 17; i++) {
    sum += USCC_ALPHABET.indexOf(code[i] as string) * weight;
    weight = (weight * 3) % 31;
  }
  return code[17] === USCC_ALPHABET[(31 - (sum % 31)) % 31];
}

/**
 * A taxpayer ID (reference §4.4) after normalising: 15, 17, 18 or 20 letters and digits. An
 * 18-character one in the USCC shape must carry its check character; other lengths (old tax
 * registration numbers, individual businesses) and 18-character ones outside the USCC shape are
 * checked by shape only, the fapiao system being the final judge.
 */
export function isValidTaxpayerId(value: string): boolean {
  if (!/^(?:[0-9A-Z]{15}|[0-9A-Z]{17}|[0-9A-Z]{18}|[0-9A-Z]{20})$/.test(value)) return false;
  return value.length !== 18 || !USCC_SHAPE.test(value) || isValidUscc(value);
}

const text = (key: ValidationKey, max: number) =>
  z.string(rule(key)).trim().min(1, rule(key)).max(max, rule(key));

export const invoiceProfileSchema = z.object({
  /** The buyer's name as certified (the company's name). */
  title: text('invoiceTitle', 100),
  taxpayerId: z
    .string(rule('invoiceTaxpayerId'))
    .transform(normalizeTaxpayerId)
    .refine(isValidTaxpayerId, rule('invoiceTaxpayerId')),
  bankName: text('invoiceBankName', 100),
  /** A corporate settlement account: 8 to 32 digits once spaces and '-' are gone (reference §4.5). */
  bankAccount: z
    .string(rule('invoiceBankAccount'))
    .transform((v) => v.replace(/[\s-]/g, ''))
    .refine((v) => /^\d{8,32}$/.test(v), rule('invoiceBankAccount')),
  address: text('invoiceAddress', 200),
  phone: z
    .string(rule('invoicePhone'))
    .trim()
    .regex(/^\+?[0-9][0-9\- ()]{4,28}[0-9]$/, rule('invoicePhone')),
});
export type InvoiceProfileInput = z.input<typeof invoiceProfileSchema>;
export type InvoiceProfile = z.output<typeof invoiceProfileSchema>;

const optionalText = (key: ValidationKey, max: number) =>
  z.string(rule(key)).trim().max(max, rule(key)).optional();

/**
 * An application (and a resubmission after a rejection). Type, material and delivery go
 * together: electronic ⇔ material electronic ⇔ delivery email (with the address to send to);
 * ordinary and VAT special are paper, by post or cash on delivery, with a mailing address.
 */
export const invoiceApplySchema = z
  .object({
    /** Yuan, as typed: at least 0.01. */
    amount: z
      .string(rule('invoiceAmount'))
      .trim()
      .refine((a) => (yuanToFen(a) ?? 0) >= 1, rule('invoiceAmount')),
    type: z.enum(INVOICE_TYPES, rule('invoiceType')),
    material: z.enum(INVOICE_MATERIALS, rule('invoiceMaterial')),
    delivery: z.enum(INVOICE_DELIVERIES, rule('invoiceDelivery')),
    method: z.enum(INVOICE_METHODS, rule('invoiceMethod')).default('all_in_one'),
    email: z.union([z.literal(''), z.email(rule('emailFormat'))]).optional(),
    recipient: optionalText('invoiceRecipient', 50),
    recipientPhone: optionalText('invoiceRecipientPhone', 30),
    mailingAddress: optionalText('invoiceMailingAddress', 200),
    note: z.string().trim().max(200).optional(),
  })
  .superRefine((v, ctx) => {
    const issue = (path: string, key: ValidationKey) =>
      ctx.addIssue({ code: 'custom', path: [path], message: key });
    const electronic = v.type === 'electronic';
    if (v.material !== (electronic ? 'electronic' : 'paper')) issue('material', 'invoiceMaterialMismatch');
    if ((v.delivery === 'email') !== electronic) issue('delivery', 'invoiceDeliveryMismatch');
    if (electronic) {
      if (!v.email) issue('email', 'invoiceEmailRequired');
      return;
    }
    if (!v.recipient) issue('recipient', 'invoiceRecipient');
    if (!v.recipientPhone || !/^\+?[0-9][0-9\- ()]{4,28}[0-9]$/.test(v.recipientPhone))
      issue('recipientPhone', 'invoiceRecipientPhone');
    if (!v.mailingAddress) issue('mailingAddress', 'invoiceMailingAddress');
  });
export type InvoiceApplyInput = z.input<typeof invoiceApplySchema>;
export type InvoiceApplication = z.output<typeof invoiceApplySchema>;

/** The operator's reason for a rejection, shown to the customer. */
export const invoiceRejectSchema = z.object({ reason: text('invoiceRejectReason', 200) });
/** The express number of a shipped paper invoice. */
export const invoiceShipSchema = z.object({ expressNo: text('invoiceExpressNo', 64) });

export interface InvoiceProfileView extends InvoiceProfile {
  updatedAt: number;
}

/** What the apply screen needs: the pool, the rules' figures, and the profile (null: fill it first). */
export interface InvoiceSummaryView {
  invoiceableFen: number;
  /** Paid online and offline recharges in all. */
  rechargedFen: number;
  /** Applied for and not rejected or voided. */
  invoicedFen: number;
  balanceFen: number;
  postageFen: number;
  freeShippingFen: number;
  electronicMaxFen: number;
  profile: InvoiceProfileView | null;
}

export interface InvoiceView {
  id: number;
  amountFen: number;
  type: InvoiceType;
  material: InvoiceMaterial;
  delivery: InvoiceDelivery;
  method: InvoiceMethod;
  /** The profile as it was when applied (or resubmitted). */
  profile: InvoiceProfile;
  email: string | null;
  recipient: string | null;
  recipientPhone: string | null;
  mailingAddress: string | null;
  note: string | null;
  postageFen: number;
  status: InvoiceStatus;
  expressNo: string | null;
  rejectReason: string | null;
  /** How many times it was resubmitted after a rejection. */
  resubmissions: number;
  createdAt: number;
  updatedAt: number;
  invoicedAt: number | null;
  deliveredAt: number | null;
}

/** An invoice as operators see it, with whose it is. */
export interface AdminInvoiceView extends InvoiceView {
  accountId: number;
  userName: string;
}

export interface InvoicesPage<T = InvoiceView> {
  list: T[];
  total: number;
}

export const invoicesQuerySchema = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  status: z.enum(INVOICE_STATUSES).optional().catch(undefined),
});
export type InvoicesQuery = z.infer<typeof invoicesQuerySchema>;

export const adminInvoicesQuerySchema = invoicesQuerySchema.extend({
  accountId: z.coerce.number().int().min(1).optional().catch(undefined),
  type: z.enum(INVOICE_TYPES).optional().catch(undefined),
});
export type AdminInvoicesQuery = z.infer<typeof adminInvoicesQuerySchema>;
