import type { AccountDetails } from '@herald/shared';
import { type AccountHolderType, AppError, type EnterpriseInfo, type PersonalInfo } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { SessionCaller, UserCaller } from '../context.ts';
import type { SensitiveVerificationService } from '../sensitive-verification/sensitive-verification.service.ts';
import * as repo from './account-details.repo.ts';

/** Masks an ID number as 110***********123X: region and last four, enough to recognise. */
export function maskIdNumber(id: string): string {
  return `${id.slice(0, 3)}${'*'.repeat(Math.max(id.length - 7, 4))}${id.slice(-4)}`;
}

const sealContext = (accountId: number) => `account_profiles.id_number:${accountId}`;

/**
 * The account's details (console-spec §7 `/userInfo/edited/{accountType, enterprise, personal,
 * exmail}`): whether a person or a company holds the account, the company's information, the
 * person's real name and ID number, and where notice and report mails go. They describe the
 * account, not a user, so every user of the account reads them and only the owner changes them.
 * An ID number is sealed at rest and shown back masked; setting one is a sensitive operation.
 */
export class AccountDetailsService {
  private readonly database: Database;
  private readonly box: SecretBox;
  private readonly verification: SensitiveVerificationService;

  constructor(deps: {
    database: Database;
    secretBox: SecretBox;
    verification: SensitiveVerificationService;
  }) {
    this.database = deps.database;
    this.box = deps.secretBox;
    this.verification = deps.verification;
  }

  async get(ctx: UserCaller): Promise<AccountDetails> {
    const row = await repo.findAccountDetails(this.database, ctx.accountId);
    const ownerEmail = await repo.ownerEmail(this.database, ctx.accountId);
    return {
      accountType: row?.holder_type ?? null,
      enterprise: row?.company_name
        ? {
            companyName: row.company_name,
            website: row.company_website ?? '',
            industry: row.industry ?? '',
            contactName: row.contact_name ?? '',
            contactPhone: row.contact_phone ?? '',
          }
        : null,
      personal: row?.real_name ? { realName: row.real_name, idNumber: row.id_number_masked ?? '' } : null,
      exmail: row?.exmail ?? null,
      exmailEffective: row?.exmail ?? ownerEmail,
      updatedAt: row?.updated_at ?? null,
      editable: await repo.isOwner(this.database, ctx.accountId, ctx.userId),
    };
  }

  async setAccountType(ctx: UserCaller, accountType: AccountHolderType): Promise<AccountDetails> {
    await this.requireOwner(ctx);
    return this.save(ctx, { holder_type: accountType });
  }

  async setEnterprise(ctx: UserCaller, info: EnterpriseInfo): Promise<AccountDetails> {
    await this.requireOwner(ctx);
    return this.save(ctx, {
      company_name: info.companyName,
      company_website: info.website || null,
      industry: info.industry,
      contact_name: info.contactName,
      contact_phone: info.contactPhone,
    });
  }

  async setPersonal(session: SessionCaller, info: PersonalInfo): Promise<AccountDetails> {
    await this.requireOwner(session);
    await this.verification.requireRecentVerification(session);
    return this.save(session, {
      real_name: info.realName,
      id_number_sealed: this.box.seal(info.idNumber, sealContext(session.accountId)),
      id_number_masked: maskIdNumber(info.idNumber),
    });
  }

  async setExmail(ctx: UserCaller, email: string | null): Promise<AccountDetails> {
    await this.requireOwner(ctx);
    return this.save(ctx, { exmail: email });
  }

  private async save(ctx: UserCaller, patch: repo.AccountDetailsPatch): Promise<AccountDetails> {
    await repo.upsertAccountDetails(this.database, ctx.accountId, patch, Date.now());
    return this.get(ctx);
  }

  private async requireOwner(ctx: UserCaller): Promise<void> {
    if (!(await repo.isOwner(this.database, ctx.accountId, ctx.userId))) {
      throw new AppError('PROFILE_OWNER_ONLY');
    }
  }
}
