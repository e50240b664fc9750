import { AppError, type BenefitPackageView, packageGrantSchema } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import { findPlan } from '../accounts/account-plans.repo.ts';
import type { Caller } from '../context.ts';
import { listPrices } from '../ledger/ledger.repo.ts';
import * as repo from './packages.repo.ts';
import { addBeijingMonths } from './vouchers.service.ts';

/** A package as operators list it: with the user name of its account. */
export type AdminPackageView = BenefitPackageView & { username: string };

/**
 * Benefit packages (issue 18 "`/userBenefitPackage`: type, quota, expiry; consumed before the
 * balance"; product-spec §3 "Package (increment): type, quota, expiry").
 *
 * A package is a quota of units of one price code (`email`, `sms_domestic`, …) an operator grants
 * an account for a number of Beijing calendar months from now (`packages:grant`, /admin).
 * Charging takes an outcome's units from the account's packages of its price code that were valid
 * when it happened, earliest expiry first, before it charges money (package-draw.ts, called from
 * ledger/charging.ts). Status: active → exhausted (quota used up) or expired (past its time, marked
 * by the expiry task; reads show it at once) or voided by an operator.
 */
export class BenefitPackagesService {
  private readonly database: Database;
  private readonly now: () => number;

  constructor(database: Database, options: { now?: () => number } = {}) {
    this.database = database;
    this.now = options.now ?? Date.now;
  }

  /** The account's packages, newest first. */
  async list({ accountId }: Caller): Promise<BenefitPackageView[]> {
    const now = this.now();
    return (await repo.listPackages(this.database, accountId, 200)).map((r) => packageView(r, now));
  }

  async listAll(accountId?: number): Promise<AdminPackageView[]> {
    const now = this.now();
    return (await repo.listPackages(this.database, accountId, 500)).map((r) => ({
      ...packageView(r, now),
      username: r.username,
    }));
  }

  /** An operator's grant (`operator` null from the command line). */
  async grant(operator: Caller | null, input: unknown): Promise<BenefitPackageView> {
    const parsed = packageGrantSchema.safeParse(input);
    const codes = (await listPrices(this.database)).map((p) => p.code);
    if (!parsed.success || !codes.includes(parsed.data.type)) {
      throw new AppError('PACKAGE_GRANT_INVALID', { type: codes.join(', ') });
    }
    const { accountId, type, quota, months, reason } = parsed.data;
    if (!(await findPlan(this.database, accountId)))
      throw new AppError('COMMON_NOT_FOUND', { entity: `account ${accountId}` });
    const now = this.now();
    const row: Omit<repo.PackageRow, 'id'> = {
      account_id: accountId,
      type,
      quota,
      used: 0,
      status: 'active',
      reason,
      granted_by: operator?.userId ?? null,
      starts_at: now,
      expires_at: addBeijingMonths(now, months),
      created_at: now,
      updated_at: now,
    };
    const id = await repo.insertPackage(this.database, row);
    return packageView({ ...row, id }, now);
  }

  async void(id: number): Promise<BenefitPackageView> {
    const now = this.now();
    await repo.markVoided(this.database, id, now);
    const found = await repo.findPackage(this.database, id);
    if (!found) throw new AppError('PACKAGE_NOT_FOUND');
    return packageView(found, now);
  }

  /** The expiry task's turn: packages past their time become expired. */
  expireDue(): Promise<number> {
    return repo.expireDue(this.database, this.now());
  }
}

function packageView(row: repo.PackageRow, now: number): BenefitPackageView {
  const expiresAt = Number(row.expires_at);
  const live = row.status === 'active' || row.status === 'exhausted';
  return {
    id: Number(row.id),
    accountId: Number(row.account_id),
    type: row.type,
    quota: Number(row.quota),
    used: Number(row.used),
    status: live && expiresAt <= now ? 'expired' : row.status,
    reason: row.reason,
    startsAt: Number(row.starts_at),
    expiresAt,
    createdAt: Number(row.created_at),
  };
}
