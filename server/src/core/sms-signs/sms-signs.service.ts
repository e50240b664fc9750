import {
  AppError,
  formatMessage,
  type Lang,
  type SmsSignCheckQuery,
  type SmsSignCheckResult,
  type SmsSignListQuery,
  type SmsSignsPage,
  type SmsSignType,
  type SmsSignValues,
  type SmsSignView,
  smsSignInputSchema,
  smsSignNameProblem,
  validationMessage,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Caller } from '../context.ts';
import { maskIdNumber } from '../profile/account-details.service.ts';
import { isImageKind } from '../uploads/file-kind.ts';
import {
  attachUploads,
  deleteAttachedUploads,
  requireUploads,
  uploadViews,
} from '../uploads/uploads.service.ts';
import { SENDCLOUD_SIGN_TYPES, type SendCloudSign, toSendCloudSign } from './sendcloud-sign.ts';
import {
  fileIdsOf,
  parseDetails,
  type SignDetails,
  signOwner,
  signSealContext,
  signView,
} from './sign-details.ts';
import * as repo from './sms-signs.repo.ts';

export interface SmsSignsDeps {
  database: Database;
  secretBox: SecretBox;
  now?: () => number;
}

/**
 * SMS signatures (product-spec §3, §5): the account's 【names】, each domestic or international,
 * with where it comes from and, when it belongs to a third party, that party's licence and legal
 * person. A new or changed signature is under review until a platform operator passes or rejects
 * it (SmsSignReviewService); only a passed one can be sent with (`usable`). Names are unique per
 * account and type; the unique index decides between two creations racing for one name.
 */
export class SmsSignsService {
  private readonly deps: SmsSignsDeps;
  private readonly now: () => number;

  constructor(deps: SmsSignsDeps) {
    this.deps = deps;
    this.now = deps.now ?? Date.now;
  }

  async list({ accountId }: Caller, query: SmsSignListQuery): Promise<SmsSignsPage> {
    const { rows, total } = await repo.listSigns(this.deps.database, accountId, {
      status: query.status,
      offset: (query.pageNum - 1) * query.pageSize,
      limit: query.pageSize,
    });
    return { list: await this.views(accountId, rows), total };
  }

  async get({ accountId }: Caller, id: number): Promise<SmsSignView> {
    const row = await repo.findSign(this.deps.database, accountId, id);
    if (!row) throw new AppError('SMS_SIGN_NOT_FOUND');
    return (await this.views(accountId, [row]))[0] as SmsSignView;
  }

  /** Whether `name` could be a new signature of this type: the rule it breaks, or that it is taken. */
  async check({ accountId }: Caller, query: SmsSignCheckQuery, lang: Lang): Promise<SmsSignCheckResult> {
    const problem = smsSignNameProblem(query.name);
    if (problem) return { available: false, message: validationMessage(problem, lang) };
    if (await repo.findByName(this.deps.database, accountId, query.type, query.name)) {
      return { available: false, message: formatMessage('SMS_SIGN_NAME_TAKEN', lang) };
    }
    return { available: true, message: null };
  }

  async create(caller: Caller, input: SmsSignValues): Promise<SmsSignView> {
    const id = await this.write(caller.accountId, null, input);
    return this.get(caller, id);
  }

  /** A change of any signature, passed or not, sends it back to review. */
  async update(caller: Caller, id: number, input: SmsSignValues): Promise<SmsSignView> {
    await this.get(caller, id);
    await this.write(caller.accountId, id, input);
    return this.get(caller, id);
  }

  async remove({ accountId }: Caller, id: number): Promise<void> {
    const { database } = this.deps;
    await database.db.transaction().execute(async (trx) => {
      const scoped = { ...database, db: trx };
      if (!(await repo.deleteSign(scoped, accountId, id))) throw new AppError('SMS_SIGN_NOT_FOUND');
      await deleteAttachedUploads(scoped, accountId, signOwner(id));
    });
  }

  /** The passed signature the send path may use, by id or name, of this type; undefined if none. */
  async usable(
    { accountId }: Caller,
    sign: { id: number } | { name: string },
    signType: SmsSignType,
  ): Promise<SmsSignView | undefined> {
    const row = await repo.findPassed(this.deps.database, accountId, sign, signType);
    return row ? (await this.views(accountId, [row]))[0] : undefined;
  }

  /** `smsapi/sign/list`: the account's signatures, newest first, optionally of one type. */
  async apiList(
    { accountId }: Caller,
    query: { signType?: 0 | 1; start?: number; limit?: number } = {},
  ): Promise<{ total: number; list: SendCloudSign[] }> {
    const { rows, total } = await repo.listSigns(this.deps.database, accountId, {
      signType: query.signType === undefined ? undefined : SENDCLOUD_SIGN_TYPES[query.signType],
      offset: Math.max(query.start ?? 0, 0),
      limit: Math.min(Math.max(query.limit ?? 100, 1), 100),
    });
    return { total, list: rows.map(toSendCloudSign) };
  }

  /** `smsapi/sign/get`. */
  async apiGet({ accountId }: Caller, id: number): Promise<SendCloudSign> {
    const row = await repo.findSign(this.deps.database, accountId, id);
    if (!row) throw new AppError('SMS_SIGN_NOT_FOUND');
    return toSendCloudSign(row);
  }

  /**
   * `smsapi/sign/save`: a signature by name and type alone, as the SMS API sends it (the
   * enterprise's own, no third party); under review like any other.
   */
  async apiSave({ accountId }: Caller, input: { signName: string; signType: 0 | 1 }): Promise<SendCloudSign> {
    const values = smsSignInputSchema.parse({
      name: input.signName,
      signType: SENDCLOUD_SIGN_TYPES[input.signType],
      source: 'enterprise',
    });
    return this.apiGet({ accountId }, await this.write(accountId, null, values));
  }

  /** `smsapi/sign/update`: a new name (and type) for a signature; its documents are kept. */
  async apiUpdate(
    { accountId }: Caller,
    input: { id: number; signName: string; signType?: 0 | 1 },
  ): Promise<SendCloudSign> {
    const row = await repo.findSign(this.deps.database, accountId, input.id);
    if (!row) throw new AppError('SMS_SIGN_NOT_FOUND');
    const details = parseDetails(row.details);
    const values = smsSignInputSchema.parse({
      name: input.signName,
      signType: input.signType === undefined ? row.sign_type : SENDCLOUD_SIGN_TYPES[input.signType],
      source: row.source,
      thirdParty: row.third_party === 1,
      licenseFileId: details.licenseFileId,
      legalPersonName: details.legalPersonName,
      legalPersonIdNumber: details.legalPersonIdSealed
        ? this.deps.secretBox.open(details.legalPersonIdSealed, signSealContext(accountId))
        : null,
      idSide: details.idSide,
      idFileId: details.idFileId,
      attachmentIds: details.attachmentIds,
    });
    await this.write(accountId, input.id, values);
    return this.apiGet({ accountId }, input.id);
  }

  private async write(accountId: number, id: number | null, input: SmsSignValues): Promise<number> {
    const { database } = this.deps;
    const taken = await repo.findByName(database, accountId, input.signType, input.name);
    if (taken && taken.id !== id) throw new AppError('SMS_SIGN_NAME_TAKEN');

    const details: SignDetails = input.thirdParty
      ? {
          licenseFileId: input.licenseFileId ?? null,
          legalPersonName: input.legalPersonName?.trim() ?? null,
          legalPersonIdSealed: input.legalPersonIdNumber
            ? this.deps.secretBox.seal(
                input.legalPersonIdNumber.trim().toUpperCase(),
                signSealContext(accountId),
              )
            : null,
          idSide: input.idSide,
          idFileId: input.idFileId ?? null,
          attachmentIds: input.attachmentIds,
        }
      : {
          licenseFileId: null,
          legalPersonName: null,
          legalPersonIdSealed: null,
          idSide: input.idSide,
          idFileId: null,
          attachmentIds: input.attachmentIds,
        };
    const fileIds = fileIdsOf(details);
    const files = await requireUploads(
      database,
      accountId,
      'sms_sign',
      id === null ? null : signOwner(id),
      fileIds,
    );
    const notImage = (['licenseFileId', 'idFileId'] as const).filter((field) => {
      const fileId = details[field];
      return fileId !== null && !isImageKind(files.get(fileId)?.content_type ?? '');
    });
    if (notImage.length > 0) {
      throw new AppError(
        'COMMON_VALIDATION_FAILED',
        {},
        notImage.map((field) => ({ field, message: 'smsSignImageOnly' })),
      );
    }

    const write: repo.SmsSignWrite = {
      name: input.name,
      signType: input.signType,
      source: input.source,
      thirdParty: input.thirdParty,
      details: JSON.stringify(details),
    };
    const now = this.now();
    try {
      return await database.db.transaction().execute(async (trx) => {
        const scoped = { ...database, db: trx };
        let signId = id;
        if (signId === null) signId = await repo.insertSign(scoped, accountId, write, now);
        else await repo.updateSign(scoped, accountId, signId, write, now);
        await attachUploads(scoped, accountId, signOwner(signId), fileIds);
        return signId;
      });
    } catch (error) {
      const raced = await repo.findByName(database, accountId, input.signType, input.name);
      if (!(error instanceof AppError) && raced && raced.id !== id) throw new AppError('SMS_SIGN_NAME_TAKEN');
      throw error;
    }
  }

  private async views(accountId: number, rows: repo.SmsSignRow[]): Promise<SmsSignView[]> {
    const files = await uploadViews(
      this.deps.database,
      accountId,
      rows.flatMap((r) => fileIdsOf(parseDetails(r.details))),
    );
    return rows.map((row) => {
      const sealed = parseDetails(row.details).legalPersonIdSealed;
      const idNumber = sealed
        ? maskIdNumber(this.deps.secretBox.open(sealed, signSealContext(accountId)))
        : null;
      return signView(row, files, idNumber);
    });
  }
}
