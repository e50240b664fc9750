import {
  AppError,
  type MmsPage,
  previewSmsTemplate,
  type SmsTemplateListQuery,
  type SmsTemplatePreview,
  type SmsTemplateSignOption,
  type SmsTemplatesPage,
  type SmsTemplateValues,
  type SmsTemplateView,
  smsPlaceholders,
  VOICE_CODE_VARIABLE,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Caller } from '../context.ts';
import { parsePages, parseVariables, toView } from './sms-template-view.ts';
import * as repo from './sms-templates.repo.ts';

/** A passed template as the send path needs it (`forSend`). */
export interface SmsTemplateForSend {
  id: number;
  name: string;
  kind: 'sms' | 'voice' | 'mms';
  region: 'domestic' | 'international';
  smsType: 'code' | 'notice' | 'marketing';
  /** The SMS or voice text; an MMS's title. */
  content: string;
  variables: Record<string, string>;
  pages: MmsPage[] | null;
  /** The passed signature's name; null for a voice template without one. */
  signName: string | null;
  trackLinks: boolean;
}

/** A month for the idle rule of product-spec §4. */
export const IDLE_MARKETING_MS = 30 * 24 * 3600_000;

/**
 * SMS, voice and MMS templates (product-spec §3-§5). Created and edited templates are
 * unsubmitted (an edit of a template under review or passed takes it back there); submitted ones
 * wait for the platform operator (SmsTemplateReviewService). Signatures: a template names one of
 * its account's own, of its region, in any state while it is being written; submitting needs that
 * signature passed, so an operator never reviews a template whose signature may still be refused.
 * A voice template may go without a signature (it is spoken, not shown).
 */
export class SmsTemplatesService {
  private readonly database: Database;
  private readonly now: () => number;

  constructor(database: Database, now: () => number = Date.now) {
    this.database = database;
    this.now = now;
  }

  async list({ accountId }: Caller, query: SmsTemplateListQuery): Promise<SmsTemplatesPage> {
    const { rows, total } = await repo.listTemplates(this.database, accountId, query);
    return { list: rows.map((row) => toView(row, false)), total };
  }

  async get({ accountId }: Caller, id: number): Promise<SmsTemplateView> {
    return toView(await this.row(accountId, id), true);
  }

  async create({ accountId }: Caller, input: SmsTemplateValues): Promise<SmsTemplateView> {
    const write = await this.toWrite(accountId, input);
    const id = await repo.insertTemplate(this.database, accountId, write, this.now());
    return this.get({ accountId }, id);
  }

  /** Replaces the template (its kind stays); whatever its state, it is unsubmitted again. */
  async update({ accountId }: Caller, id: number, input: SmsTemplateValues): Promise<SmsTemplateView> {
    const current = await this.row(accountId, id);
    if (current.kind !== input.kind) {
      throw new AppError('COMMON_VALIDATION_FAILED', {}, [{ field: 'kind', message: 'invalid' }]);
    }
    const write = await this.toWrite(accountId, input);
    if (!(await repo.updateTemplate(this.database, accountId, id, write, this.now()))) {
      throw new AppError('SMS_TEMPLATE_NOT_FOUND');
    }
    return this.get({ accountId }, id);
  }

  async remove({ accountId }: Caller, id: number): Promise<void> {
    if (!(await repo.deleteTemplate(this.database, accountId, id)))
      throw new AppError('SMS_TEMPLATE_NOT_FOUND');
  }

  /** unsubmitted or rejected → reviewing, with its signature passed. */
  async submit({ accountId }: Caller, id: number): Promise<SmsTemplateView> {
    const row = await this.row(accountId, id);
    if (row.status === 'reviewing') throw new AppError('SMS_TEMPLATE_ALREADY_REVIEWING');
    if (row.status === 'passed') throw new AppError('SMS_TEMPLATE_ALREADY_PASSED');
    if (row.kind !== 'voice' || row.sign_id !== null) {
      if (row.sign_id === null || row.sign_name === null) throw new AppError('SMS_TEMPLATE_SIGN_NOT_FOUND');
      if (row.sign_status !== 'passed') {
        throw new AppError('SMS_TEMPLATE_SIGN_NOT_PASSED', { name: row.sign_name });
      }
    }
    if (!(await repo.markSubmitted(this.database, accountId, id, this.now()))) {
      // Submitted or edited a moment ago by another request: report what it is now.
      return this.submit({ accountId }, id);
    }
    return this.get({ accountId }, id);
  }

  /** The handset's view of the template with its examples filled and its signature in place. */
  async preview({ accountId }: Caller, id: number): Promise<SmsTemplatePreview> {
    return previewSmsTemplate(toView(await this.row(accountId, id), true));
  }

  /** The signatures the form offers: the account's passed ones and those under review. */
  async signs({ accountId }: Caller): Promise<SmsTemplateSignOption[]> {
    const rows = await repo.listSignOptions(this.database, accountId);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      signType: row.sign_type,
      status: row.status as SmsTemplateSignOption['status'],
    }));
  }

  /**
   * For the send path: the passed template with its passed signature's name. Throws
   * SMS_TEMPLATE_NOT_FOUND (431) for none of this account's, SMS_TEMPLATE_NOT_PASSED (432) when
   * it has not passed review, SMS_SIGN_UNUSABLE (421) when its signature no longer has.
   */
  async forSend({ accountId }: Caller, templateId: number): Promise<SmsTemplateForSend> {
    const row = await repo.findTemplate(this.database, accountId, templateId);
    if (!row) throw new AppError('SMS_TEMPLATE_NOT_FOUND');
    if (row.status !== 'passed') throw new AppError('SMS_TEMPLATE_NOT_PASSED');
    const signName = row.sign_status === 'passed' ? row.sign_name : null;
    if (signName === null && (row.kind !== 'voice' || row.sign_id !== null)) {
      throw new AppError('SMS_SIGN_UNUSABLE');
    }
    return {
      id: row.id,
      name: row.name,
      kind: row.kind,
      region: row.region,
      smsType: row.sms_type,
      content: row.content,
      variables: parseVariables(row.variables),
      pages: row.kind === 'mms' ? parsePages(row.pages) : null,
      signName,
      trackLinks: row.track_links === 1,
    };
  }

  /** The account's passed domestic SMS templates with their passed signatures, for matching a gateway submit's text. */
  async passedDomesticSms({
    accountId,
  }: Caller): Promise<{ id: number; content: string; signName: string }[]> {
    const rows = await repo.listPassedDomesticSms(this.database, accountId);
    return rows.map((r) => ({ id: Number(r.id), content: r.content, signName: r.sign_name ?? '' }));
  }

  /** A send used the template at `at`: the month-long idle rule counts from its newest send. */
  async markSent({ accountId }: Caller, templateId: number, at: number): Promise<void> {
    await repo.markSent(this.database, accountId, templateId, at);
  }

  /**
   * The idle rule (product-spec §4), for a periodic job: passed marketing templates not sent for
   * a month (or, never sent, passed over a month ago) return to unsubmitted. Returns how many.
   */
  revertIdleMarketing(now: number = this.now()): Promise<number> {
    return repo.revertIdleMarketing(this.database, now - IDLE_MARKETING_MS, now);
  }

  private async row(accountId: number, id: number): Promise<repo.SmsTemplateRow> {
    const row = await repo.findTemplate(this.database, accountId, id);
    if (!row) throw new AppError('SMS_TEMPLATE_NOT_FOUND');
    return row;
  }

  /** The checked input as stored: only the examples of variables the text uses. */
  private async toWrite(accountId: number, input: SmsTemplateValues): Promise<repo.SmsTemplateWrite> {
    const region = input.kind === 'sms' ? input.region : 'domestic';
    const signId = input.signId ?? null;
    if (signId !== null) {
      const sign = await repo.findSign(this.database, accountId, signId);
      if (!sign || sign.status === 'rejected' || sign.status === 'disabled') {
        throw new AppError('SMS_TEMPLATE_SIGN_NOT_FOUND');
      }
      if (sign.sign_type !== region) throw new AppError('SMS_TEMPLATE_SIGN_REGION');
    }
    if (input.kind === 'mms') {
      const texts = [input.title, ...input.pages.map((p) => p.text ?? '')];
      return {
        name: input.name,
        kind: 'mms',
        region,
        smsType: input.smsType,
        content: input.title,
        variables: usedVariables(texts, input.variables),
        pages: JSON.stringify(input.pages.map(cleanPage)),
        signId,
        trackLinks: false,
      };
    }
    return {
      name: input.name,
      kind: input.kind,
      region,
      smsType: input.kind === 'voice' ? 'code' : input.smsType,
      content: input.content,
      variables:
        input.kind === 'voice'
          ? JSON.stringify({ [VOICE_CODE_VARIABLE]: input.variables[VOICE_CODE_VARIABLE] })
          : usedVariables([input.content], input.variables),
      pages: null,
      signId,
      trackLinks: input.kind === 'sms' ? input.trackLinks : false,
    };
  }
}

function usedVariables(texts: string[], variables: Record<string, string>): string {
  const used: Record<string, string> = {};
  for (const text of texts) {
    for (const name of smsPlaceholders(text).names) used[name] = variables[name] ?? '';
  }
  return JSON.stringify(used);
}

/** A page as stored: only its own fields, an empty text dropped. */
function cleanPage(page: MmsPage): MmsPage {
  return {
    ...(page.text?.trim() ? { text: page.text } : {}),
    ...(page.image ? { image: { name: page.image.name, type: page.image.type, data: page.image.data } } : {}),
    ...(page.audio ? { audio: { name: page.audio.name, type: page.audio.type, data: page.audio.data } } : {}),
  };
}
