import {
  AppError,
  DEFAULT_UNSUBSCRIBE_PAGE,
  UNSUBSCRIBE_PAGES_MAX,
  type UnsubscribeConfigInput,
  type UnsubscribeConfigView,
  type UnsubscribePageDesign,
  type UnsubscribePagesView,
  type UnsubscribePageView,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Caller } from '../context.ts';
import * as repo from './unsubscribe.repo.ts';
import { renderUnsubscribePage } from './unsubscribe-page.html.ts';

const view = (row: repo.PageRow): UnsubscribePageView => ({
  id: Number(row.id),
  ...DEFAULT_UNSUBSCRIBE_PAGE,
  ...(JSON.parse(row.settings) as Omit<UnsubscribePageDesign, 'name'>),
  name: row.name,
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

const settingsOf = ({ name: _name, ...settings }: UnsubscribePageDesign) => JSON.stringify(settings);

/**
 * The unsubscribe page designer (`/config/unsubscribePage`, `/config/unsubscribeConfig`): up to
 * UNSUBSCRIBE_PAGES_MAX designs per account, names unique within it, and the choice of design
 * for the account or for one API_USER. Another account's page is UNSUBSCRIBE_PAGE_NOT_FOUND.
 */
export class UnsubscribePagesService {
  private readonly database: Database;
  private readonly now: () => number;

  constructor(database: Database, options: { now?: () => number } = {}) {
    this.database = database;
    this.now = options.now ?? Date.now;
  }

  async list({ accountId }: Caller): Promise<UnsubscribePagesView> {
    const rows = await repo.listPages(this.database, accountId);
    return { pages: rows.map(view), max: UNSUBSCRIBE_PAGES_MAX };
  }

  async get({ accountId }: Caller, id: number): Promise<UnsubscribePageView> {
    const row = await repo.findPage(this.database, accountId, id);
    if (!row) throw new AppError('UNSUBSCRIBE_PAGE_NOT_FOUND');
    return view(row);
  }

  async create({ accountId }: Caller, design: UnsubscribePageDesign): Promise<UnsubscribePageView> {
    if ((await repo.countPages(this.database, accountId)) >= UNSUBSCRIBE_PAGES_MAX)
      throw new AppError('UNSUBSCRIBE_PAGE_LIMIT_REACHED', { max: UNSUBSCRIBE_PAGES_MAX });
    await this.ensureFree(accountId, design.name);
    try {
      const id = await repo.insertPage(this.database, accountId, design.name, settingsOf(design), this.now());
      return this.get({ accountId }, id);
    } catch (error) {
      await this.ensureFree(accountId, design.name);
      throw error;
    }
  }

  async update(
    { accountId }: Caller,
    id: number,
    design: UnsubscribePageDesign,
  ): Promise<UnsubscribePageView> {
    const current = await this.get({ accountId }, id);
    if (current.name !== design.name) await this.ensureFree(accountId, design.name);
    try {
      await repo.updatePage(this.database, accountId, id, design.name, settingsOf(design), this.now());
    } catch (error) {
      await this.ensureFree(accountId, design.name);
      throw error;
    }
    return this.get({ accountId }, id);
  }

  /** Deletes a design; mail that used it falls back to the account's choice or the built-in page. */
  async remove({ accountId }: Caller, id: number): Promise<void> {
    if (!(await repo.deletePage(this.database, accountId, id)))
      throw new AppError('UNSUBSCRIBE_PAGE_NOT_FOUND');
  }

  async config({ accountId }: Caller): Promise<UnsubscribeConfigView> {
    const choices = await repo.listChoices(this.database, accountId);
    const account = choices.find((c) => Number(c.api_user_id) === 0);
    return {
      pageId: account ? Number(account.page_id) : null,
      apiUsers: choices
        .filter((c) => Number(c.api_user_id) !== 0)
        .map((c) => ({ apiUserId: Number(c.api_user_id), pageId: Number(c.page_id) })),
    };
  }

  async setConfig({ accountId }: Caller, input: UnsubscribeConfigInput): Promise<UnsubscribeConfigView> {
    if (input.pageId !== null) await this.get({ accountId }, input.pageId);
    const apiUserId = input.apiUserId ?? 0;
    if (apiUserId !== 0 && !(await repo.apiUserExists(this.database, accountId, apiUserId)))
      throw new AppError('API_USER_NOT_FOUND');
    await repo.setChoice(this.database, accountId, apiUserId, input.pageId, this.now());
    return this.config({ accountId });
  }

  /** The design a recipient of `apiUserId`'s mail sees: the API_USER's, the account's, or the built-in. */
  async designFor({ accountId }: Caller, apiUserId: number | null): Promise<UnsubscribePageDesign> {
    const row = await repo.chosenPage(this.database, accountId, apiUserId);
    return row ? view(row) : DEFAULT_UNSUBSCRIBE_PAGE;
  }

  /** The page as a recipient sees it, for an example address (the console's previews). */
  preview(design: UnsubscribePageDesign): string {
    return renderUnsubscribePage({
      kind: 'form',
      design,
      email: 'us***@example.com',
      action: '#',
      cancelHref: '#',
    });
  }

  private async ensureFree(accountId: number, name: string): Promise<void> {
    if (await repo.findPageByName(this.database, accountId, name))
      throw new AppError('UNSUBSCRIBE_PAGE_NAME_TAKEN');
  }
}
