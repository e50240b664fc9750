import {
  type AdminInvoicesQuery,
  type AdminInvoiceView,
  AppError,
  fenToYuan,
  INVOICE_ELECTRONIC_MAX_FEN,
  INVOICE_FREE_SHIPPING_FEN,
  INVOICE_POSTAGE_FEN,
  type InvoiceApplication,
  type InvoiceProfile,
  type InvoiceProfileView,
  type InvoiceStatus,
  type InvoiceSummaryView,
  type InvoicesPage,
  type InvoicesQuery,
  type InvoiceView,
  invoicePostageFen,
  yuanToFen,
} from '@herald/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import type { Caller, UserCaller } from '../context.ts';
import { postEntry } from '../ledger/ledger.repo.ts';
import * as repo from './invoices.repo.ts';

export interface InvoicesDeps {
  database: Database;
  /** Told when postage changed an account's balance (the send gates' caches). */
  onBalanceChanged: (accountId: number) => void;
  now?: () => number;
}

type Action = 'resubmitted' | 'voided' | 'invoiced' | 'shipped' | 'emailed' | 'rejected';

/**
 * Invoices (fapiao; issue 18; product-spec §3, §4, §8, §9; reference payments-and-identity §4.4,
 * §5). The rules:
 *
 * - One invoice profile per account (title, taxpayer ID, bank and account, address and phone),
 *   validated by the shared `invoiceProfileSchema` (an 18-character USCC by its check character).
 *   An application needs one, and keeps a snapshot of it.
 * - Invoiceable amount = paid recharges (`recharge_orders` paid, types online and offline) − the
 *   amounts of the account's invoices that are not rejected or voided. Vouchers and operator
 *   adjustments are not invoiceable. An application (or resubmission) may not exceed it; the
 *   account's applications are serialised by a lock on its profile row so two cannot both spend it.
 * - Type, material and delivery go together (the shared schema): electronic ⇔ material
 *   electronic ⇔ delivery by email; ordinary and VAT special are paper, by post or cash on
 *   delivery. product-spec §8 "The balance of electronic invoice is insufficient, please select
 *   paper invoice" is read as the e-invoice quota per invoice: an electronic invoice carries at
 *   most `INVOICE_ELECTRONIC_MAX_FEN` (10,000 yuan); more must be paper.
 * - Postage: paper by post under 2,000 yuan pays 18 yuan, taken from the balance by a `charge`
 *   entry keyed `invoice-postage:<id>` in the application's transaction; a balance that cannot
 *   cover it refuses the application (INVOICE_POSTAGE_BALANCE says so and what else to do).
 *   2,000 yuan or more ships free; cash on delivery and email take nothing.
 * - Rejecting or voiding returns the amount to the pool. A rejected or voided application that
 *   was never invoiced gets its postage back (`refund` keyed `invoice-postage-refund:<id>`), so
 *   a resubmission pays its own round's postage again; round n > 0 keys carry `:<n>`
 *   (`invoice-postage:<id>:1`), keeping every ledger key unique. Voiding after invoicing keeps
 *   the postage (the invoice went out).
 * - Lifecycle: applied → invoiced → shipped (paper, with the express number) or emailed
 *   (electronic); an operator may ship or e-mail straight from applied. applied → rejected (with
 *   a reason) → applied again when the customer resubmits (edited, with the profile as it is
 *   now). The customer voids only an application nobody has acted on (applied) or a rejected
 *   one; the operator voids at any stage but voided.
 */
export class InvoicesService {
  private readonly database: Database;
  private readonly deps: InvoicesDeps;
  private readonly now: () => number;

  constructor(deps: InvoicesDeps) {
    this.deps = deps;
    this.database = deps.database;
    this.now = deps.now ?? Date.now;
  }

  async profile({ accountId }: Caller): Promise<InvoiceProfileView | null> {
    const row = await repo.findProfile(this.database.db, accountId);
    return row ? profileView(row) : null;
  }

  async saveProfile({ accountId }: Caller, profile: InvoiceProfile): Promise<InvoiceProfileView> {
    await repo.saveProfile(this.database, {
      account_id: accountId,
      title: profile.title,
      taxpayer_id: profile.taxpayerId,
      bank_name: profile.bankName,
      bank_account: profile.bankAccount,
      address: profile.address,
      phone: profile.phone,
      updated_at: this.now(),
    });
    return (await this.profile({ accountId })) as InvoiceProfileView;
  }

  /** The apply screen's figures: the invoiceable amount, the balance, the rules, the profile. */
  async summary({ accountId }: Caller): Promise<InvoiceSummaryView> {
    const db = this.database.db;
    const [rechargedFen, invoicedFen, balanceFen, profile] = await Promise.all([
      repo.rechargedFen(db, accountId),
      repo.heldFen(db, accountId),
      repo.balanceIn(db, accountId),
      repo.findProfile(db, accountId),
    ]);
    return {
      invoiceableFen: Math.max(0, rechargedFen - invoicedFen),
      rechargedFen,
      invoicedFen,
      balanceFen,
      postageFen: INVOICE_POSTAGE_FEN,
      freeShippingFen: INVOICE_FREE_SHIPPING_FEN,
      electronicMaxFen: INVOICE_ELECTRONIC_MAX_FEN,
      profile: profile ? profileView(profile) : null,
    };
  }

  async list({ accountId }: Caller, query: InvoicesQuery): Promise<InvoicesPage> {
    const { rows, total } = await repo.listInvoices(this.database, accountId, {
      status: query.status,
      offset: (query.pageNum - 1) * query.pageSize,
      limit: query.pageSize,
    });
    return { list: rows.map(invoiceView), total };
  }

  async get({ accountId }: Caller, id: number): Promise<InvoiceView> {
    return invoiceView(await this.owned(this.database.db, accountId, id));
  }

  /** A new application; its postage (if any) is taken in the same transaction. */
  async apply(caller: UserCaller, input: InvoiceApplication): Promise<InvoiceView> {
    const id = await this.write(caller.accountId, async (trx, at) => {
      const fields = await this.checked(trx, caller.accountId, input);
      const id = await repo.insertInvoice(trx, {
        ...fields,
        account_id: caller.accountId,
        user_id: caller.userId,
        postage_round: 0,
        status: 'applied',
        express_no: null,
        reject_reason: null,
        created_at: at,
        updated_at: at,
        invoiced_at: null,
        delivered_at: null,
        voided_at: null,
      });
      await this.takePostage(trx, caller, id, 0, fields.postage_fen, at);
      return id;
    });
    return this.get(caller, id);
  }

  /** The customer's edited application after a rejection: applied again, paying its own postage. */
  async resubmit(caller: UserCaller, id: number, input: InvoiceApplication): Promise<InvoiceView> {
    await this.write(caller.accountId, async (trx, at) => {
      const invoice = await this.owned(trx, caller.accountId, id);
      if (invoice.status !== 'rejected') throw conflict(invoice.status, 'resubmitted');
      const fields = await this.checked(trx, caller.accountId, input, id);
      const round = Number(invoice.postage_round) + 1;
      const moved = await repo.transition(trx, id, ['rejected'], {
        ...fields,
        user_id: caller.userId,
        postage_round: round,
        status: 'applied',
        reject_reason: null,
        updated_at: at,
      });
      if (!moved) throw conflict(invoice.status, 'resubmitted');
      await this.takePostage(trx, caller, id, round, fields.postage_fen, at);
      return id;
    });
    return this.get(caller, id);
  }

  /** The customer withdraws an application nobody has acted on, or a rejected one. */
  async voidOwn(caller: UserCaller, id: number): Promise<InvoiceView> {
    const invoice = await this.owned(this.database.db, caller.accountId, id);
    await this.close(invoice, ['applied', 'rejected'], 'voided', {}, caller.userId);
    return this.get(caller, id);
  }

  async adminList(query: AdminInvoicesQuery): Promise<InvoicesPage<AdminInvoiceView>> {
    const { rows, total } = await repo.listAllInvoices(this.database, {
      status: query.status,
      type: query.type,
      accountId: query.accountId,
      offset: (query.pageNum - 1) * query.pageSize,
      limit: query.pageSize,
    });
    return {
      list: rows.map((r) => ({
        ...invoiceView(r),
        accountId: Number(r.account_id),
        userName: r.username ?? '',
      })),
      total,
    };
  }

  /** Issued, to be shipped (paper) or e-mailed. */
  async markInvoiced(id: number): Promise<AdminInvoiceView> {
    const invoice = await this.any(id);
    const at = this.now();
    if (
      !(await repo.transition(this.database.db, id, ['applied'], {
        status: 'invoiced',
        invoiced_at: at,
        updated_at: at,
      }))
    )
      throw conflict(invoice.status, 'invoiced');
    return this.adminView(id);
  }

  /** A paper invoice handed to the courier, with its express number. */
  async markShipped(id: number, expressNo: string): Promise<AdminInvoiceView> {
    const invoice = await this.any(id);
    if (invoice.material !== 'paper') throw mismatch(invoice, 'shipped');
    const at = this.now();
    const moved = await repo.transition(this.database.db, id, ['applied', 'invoiced'], {
      status: 'shipped',
      express_no: expressNo,
      invoiced_at: invoice.invoiced_at ?? at,
      delivered_at: at,
      updated_at: at,
    });
    if (!moved) throw conflict(invoice.status, 'shipped');
    return this.adminView(id);
  }

  /** An electronic invoice sent to the customer's mailbox. */
  async markEmailed(id: number): Promise<AdminInvoiceView> {
    const invoice = await this.any(id);
    if (invoice.delivery !== 'email') throw mismatch(invoice, 'emailed');
    const at = this.now();
    const moved = await repo.transition(this.database.db, id, ['applied', 'invoiced'], {
      status: 'emailed',
      invoiced_at: invoice.invoiced_at ?? at,
      delivered_at: at,
      updated_at: at,
    });
    if (!moved) throw conflict(invoice.status, 'emailed');
    return this.adminView(id);
  }

  /** Sent back with a reason the customer sees; the amount returns to the pool, the postage to the balance. */
  async reject(operator: UserCaller, id: number, reason: string): Promise<AdminInvoiceView> {
    await this.close(await this.any(id), ['applied'], 'rejected', { reject_reason: reason }, operator.userId);
    return this.adminView(id);
  }

  /** Voided at any stage (a red-letter reversal once issued); the amount returns to the pool. */
  async adminVoid(operator: UserCaller, id: number): Promise<AdminInvoiceView> {
    const from: InvoiceStatus[] = ['applied', 'invoiced', 'shipped', 'emailed', 'rejected'];
    await this.close(await this.any(id), from, 'voided', {}, operator.userId);
    return this.adminView(id);
  }

  /**
   * Rejects or voids one invoice; one that was never invoiced (applied) gets its round's postage
   * back in the same transaction. A rejected one's postage went back when it was rejected.
   */
  private async close(
    invoice: repo.InvoiceRow,
    from: InvoiceStatus[],
    to: 'rejected' | 'voided',
    changes: { reject_reason?: string },
    by: number,
  ): Promise<void> {
    const id = Number(invoice.id);
    const accountId = Number(invoice.account_id);
    const action = to === 'rejected' ? 'rejected' : 'voided';
    if (!from.includes(invoice.status)) throw conflict(invoice.status, action);
    const refunded = await this.database.db.transaction().execute(async (trx) => {
      const at = this.now();
      const current = (await repo.findAnyInvoice(trx, id)) as repo.InvoiceRow;
      const postage = current.status === 'applied' ? Number(current.postage_fen) : 0;
      const moved = await repo.transition(
        trx,
        id,
        [current.status].filter((s) => from.includes(s)),
        {
          ...changes,
          status: to,
          ...(postage > 0 ? { postage_fen: 0 } : {}),
          ...(to === 'voided' ? { voided_at: at } : {}),
          updated_at: at,
        },
      );
      if (!moved) throw conflict(current.status, action);
      if (postage > 0) {
        await postEntry(trx, {
          accountId,
          kind: 'refund',
          amountFen: postage,
          reason: 'Invoice postage refund',
          detail: JSON.stringify({ invoiceId: id, round: Number(current.postage_round) }),
          idempotencyKey: roundKey(`invoice-postage-refund:${id}`, Number(current.postage_round)),
          createdBy: by,
          at,
        });
      }
      return postage > 0;
    });
    if (refunded) this.deps.onBalanceChanged(accountId);
  }

  /**
   * Checks an application against the account's profile, invoiceable amount and electronic quota
   * inside the locked transaction, and answers the row's fields with its postage.
   */
  private async checked(trx: Kysely<DB>, accountId: number, input: InvoiceApplication, exceptId?: number) {
    const profile = await repo.findProfile(trx, accountId);
    if (!profile || !(await repo.lockAccount(trx, accountId))) throw new AppError('INVOICE_PROFILE_REQUIRED');
    const amountFen = yuanToFen(input.amount) as number;
    const available = Math.max(
      0,
      (await repo.rechargedFen(trx, accountId)) - (await repo.heldFen(trx, accountId, exceptId)),
    );
    if (amountFen > available)
      throw new AppError('INVOICE_AMOUNT_EXCEEDED', { available: fenToYuan(available) });
    if (input.type === 'electronic' && amountFen > INVOICE_ELECTRONIC_MAX_FEN)
      throw new AppError('INVOICE_ELECTRONIC_LIMIT', { max: fenToYuan(INVOICE_ELECTRONIC_MAX_FEN) });
    const electronic = input.type === 'electronic';
    return {
      amount_fen: amountFen,
      type: input.type,
      material: input.material,
      delivery: input.delivery,
      method: input.method,
      title: profile.title,
      taxpayer_id: profile.taxpayer_id,
      bank_name: profile.bank_name,
      bank_account: profile.bank_account,
      address: profile.address,
      phone: profile.phone,
      email: electronic ? input.email || null : null,
      recipient: electronic ? null : (input.recipient ?? null),
      recipient_phone: electronic ? null : (input.recipientPhone ?? null),
      mailing_address: electronic ? null : (input.mailingAddress ?? null),
      note: input.note || null,
      postage_fen: invoicePostageFen({ delivery: input.delivery, amountFen }),
    };
  }

  /** Takes a round's postage from the balance, or refuses when the balance cannot cover it. */
  private async takePostage(
    trx: Kysely<DB>,
    caller: UserCaller,
    id: number,
    round: number,
    postageFen: number,
    at: number,
  ): Promise<void> {
    if (postageFen === 0) return;
    const balance = await repo.balanceIn(trx, caller.accountId);
    if (balance < postageFen) {
      throw new AppError('INVOICE_POSTAGE_BALANCE', {
        balance: fenToYuan(balance),
        postage: fenToYuan(postageFen),
        free: fenToYuan(INVOICE_FREE_SHIPPING_FEN),
      });
    }
    await postEntry(trx, {
      accountId: caller.accountId,
      kind: 'charge',
      amountFen: -postageFen,
      reason: 'Invoice postage',
      detail: JSON.stringify({ invoiceId: id, round }),
      idempotencyKey: roundKey(`invoice-postage:${id}`, round),
      createdBy: caller.userId,
      at,
    });
  }

  private async write(
    accountId: number,
    run: (trx: Kysely<DB>, at: number) => Promise<number>,
  ): Promise<number> {
    let charged = false;
    const id = await this.database.db.transaction().execute(async (trx) => {
      const id = await run(trx, this.now());
      const row = (await repo.findInvoice(trx, accountId, id)) as repo.InvoiceRow;
      charged = Number(row.postage_fen) > 0;
      return id;
    });
    if (charged) this.deps.onBalanceChanged(accountId);
    return id;
  }

  private async owned(db: Kysely<DB>, accountId: number, id: number): Promise<repo.InvoiceRow> {
    const invoice = await repo.findInvoice(db, accountId, id);
    if (!invoice) throw new AppError('INVOICE_NOT_FOUND');
    return invoice;
  }

  private async any(id: number): Promise<repo.InvoiceRow> {
    const invoice = await repo.findAnyInvoice(this.database.db, id);
    if (!invoice) throw new AppError('INVOICE_NOT_FOUND');
    return invoice;
  }

  private async adminView(id: number): Promise<AdminInvoiceView> {
    const row = await this.any(id);
    const accountId = Number(row.account_id);
    return { ...invoiceView(row), accountId, userName: await repo.ownerName(this.database, accountId) };
  }
}

function roundKey(base: string, round: number): string {
  return round === 0 ? base : `${base}:${round}`;
}

function conflict(status: InvoiceStatus, action: Action): AppError {
  return new AppError('INVOICE_STATUS_CONFLICT', { status, action });
}

function mismatch(invoice: repo.InvoiceRow, action: Action): AppError {
  return new AppError('INVOICE_DELIVERY_MISMATCH', { delivery: invoice.delivery, action });
}

function profileView(row: repo.ProfileRow): InvoiceProfileView {
  return {
    title: row.title,
    taxpayerId: row.taxpayer_id,
    bankName: row.bank_name,
    bankAccount: row.bank_account,
    address: row.address,
    phone: row.phone,
    updatedAt: Number(row.updated_at),
  };
}

function invoiceView(row: repo.InvoiceRow): InvoiceView {
  const time = (v: number | null) => (v === null ? null : Number(v));
  return {
    id: Number(row.id),
    amountFen: Number(row.amount_fen),
    type: row.type,
    material: row.material,
    delivery: row.delivery,
    method: row.method,
    profile: {
      title: row.title,
      taxpayerId: row.taxpayer_id,
      bankName: row.bank_name,
      bankAccount: row.bank_account,
      address: row.address,
      phone: row.phone,
    },
    email: row.email,
    recipient: row.recipient,
    recipientPhone: row.recipient_phone,
    mailingAddress: row.mailing_address,
    note: row.note,
    postageFen: Number(row.postage_fen),
    status: row.status,
    expressNo: row.express_no,
    rejectReason: row.reject_reason,
    resubmissions: Number(row.postage_round),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    invoicedAt: time(row.invoiced_at),
    deliveredAt: time(row.delivered_at),
  };
}
