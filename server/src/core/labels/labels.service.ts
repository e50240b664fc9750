import { AppError, type LabelInput } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Caller } from '../context.ts';
import * as repo from './labels.repo.ts';

/** A label as the console and the SendCloud-compatible API show it. */
export interface LabelView {
  id: number;
  name: string;
  createdAt: number;
  updatedAt: number;
}

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

/**
 * Labels (`/config/labels`, SendCloud `label/*`): names unique within the account, used to
 * group mail in statistics. Another account's label is LABEL_NOT_FOUND, never visible.
 */
export class LabelsService {
  private readonly database: Database;
  private readonly now: () => number;

  constructor(database: Database, options: { now?: () => number } = {}) {
    this.database = database;
    this.now = options.now ?? Date.now;
  }

  async list(
    { accountId }: Caller,
    filter: LabelFilter = {},
  ): Promise<{ labels: LabelView[]; total: number }> {
    const query = filter.query?.trim().toLowerCase();
    const all = (await repo.listLabels(this.database, accountId)).filter(
      (row) => !query || row.name.toLowerCase().includes(query),
    );
    const start = filter.start ?? 0;
    const end = filter.limit === undefined ? undefined : start + filter.limit;
    return { labels: all.slice(start, end).map(view), total: all.length };
  }

  async get({ accountId }: Caller, id: number): Promise<LabelView> {
    const row = await repo.findLabel(this.database, accountId, id);
    if (!row) throw new AppError('LABEL_NOT_FOUND');
    return view(row);
  }

  async create({ accountId }: Caller, input: LabelInput): Promise<LabelView> {
    await this.ensureFree(accountId, input.name);
    try {
      const id = await repo.insertLabel(this.database, accountId, input.name, this.now());
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
      await repo.renameLabel(this.database, accountId, id, input.name, this.now());
    } catch (error) {
      await this.ensureFree(accountId, input.name);
      throw error;
    }
    return this.get({ accountId }, id);
  }

  async remove({ accountId }: Caller, id: number): Promise<void> {
    if (!(await repo.deleteLabel(this.database, accountId, id))) throw new AppError('LABEL_NOT_FOUND');
  }

  /** Two creations racing for one name: the unique index decides, this names the loser's error. */
  private async ensureFree(accountId: number, name: string): Promise<void> {
    if (await repo.findLabelByName(this.database, accountId, name)) throw new AppError('LABEL_NAME_TAKEN');
  }
}
