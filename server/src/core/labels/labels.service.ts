import { AppError, type ErrorCode, type LabelChannel, type LabelInput, type LabelView } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Caller } from '../context.ts';
import * as repo from './labels.repo.ts';

export type { LabelView };

export interface LabelFilter {
  /** Part of the name (SendCloud's `query`). */
  query?: string | undefined;
  start?: number | undefined;
  limit?: number | undefined;
}

const view = (row: repo.LabelRow): LabelView => ({
  id: Number(row.id),
  name: row.name,
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

/** Each channel answers with its own codes: SMS ones carry SendCloud SMS numbers. */
const CODES: Record<LabelChannel, { notFound: ErrorCode; taken: ErrorCode }> = {
  email: { notFound: 'LABEL_NOT_FOUND', taken: 'LABEL_NAME_TAKEN' },
  sms: { notFound: 'SMS_LABEL_NOT_FOUND', taken: 'SMS_LABEL_NAME_TAKEN' },
};

/**
 * Labels of one channel: email (`/config/labels`, SendCloud `label/*`, grouping mail in
 * statistics) or SMS (`/sms/smsLabels`, `smsapi/label/*`, the `labelId` of SMS sends); one
 * instance per channel, which sees only that channel's labels. Names are unique within the
 * account and channel. Another account's label, or the other channel's, is not found.
 */
export class LabelsService {
  private readonly database: Database;
  private readonly channel: LabelChannel;
  private readonly codes: { notFound: ErrorCode; taken: ErrorCode };
  private readonly now: () => number;

  constructor(database: Database, options: { channel: LabelChannel; now?: () => number }) {
    this.database = database;
    this.channel = options.channel;
    this.codes = CODES[this.channel];
    this.now = options.now ?? Date.now;
  }

  async list(
    { accountId }: Caller,
    filter: LabelFilter = {},
  ): Promise<{ labels: LabelView[]; total: number }> {
    const query = filter.query?.trim().toLowerCase();
    const all = (await repo.listLabels(this.database, accountId, this.channel)).filter(
      (row) => !query || row.name.toLowerCase().includes(query),
    );
    const start = filter.start ?? 0;
    const end = filter.limit === undefined ? undefined : start + filter.limit;
    return { labels: all.slice(start, end).map(view), total: all.length };
  }

  async get({ accountId }: Caller, id: number): Promise<LabelView> {
    const row = await repo.findLabel(this.database, accountId, id, this.channel);
    if (!row) throw new AppError(this.codes.notFound);
    return view(row);
  }

  async create({ accountId }: Caller, input: LabelInput): Promise<LabelView> {
    await this.ensureFree(accountId, input.name);
    try {
      const id = await repo.insertLabel(this.database, accountId, input.name, this.channel, this.now());
      return this.get({ accountId }, id);
    } catch (error) {
      await this.ensureFree(accountId, input.name);
      throw error;
    }
  }

  async rename({ accountId }: Caller, id: number, input: LabelInput): Promise<LabelView> {
    const current = await this.get({ accountId }, id);
    if (current.name === input.name) return current;
    await this.ensureFree(accountId, input.name);
    try {
      await repo.renameLabel(this.database, accountId, id, this.channel, input.name, this.now());
    } catch (error) {
      await this.ensureFree(accountId, input.name);
      throw error;
    }
    return this.get({ accountId }, id);
  }

  async remove({ accountId }: Caller, id: number): Promise<void> {
    if (!(await repo.deleteLabel(this.database, accountId, id, this.channel))) {
      throw new AppError(this.codes.notFound);
    }
  }

  /** Two creations racing for one name: the unique index decides, this names the loser's error. */
  private async ensureFree(accountId: number, name: string): Promise<void> {
    if (await repo.findLabelByName(this.database, accountId, name, this.channel)) {
      throw new AppError(this.codes.taken);
    }
  }
}
