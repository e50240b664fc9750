import { AppError, SMS_MSG_TYPES } from '@herald/shared';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { SmsComplianceService } from '../sms-compliance/sms-compliance.service.ts';
import type { SmsSignsService } from '../sms-signs/sms-signs.service.ts';
import type { SendableTemplate, SmsSendSources } from './sms-send.service.ts';

/**
 * What sending reads of templates, signatures, certification and filing: a template must have
 * passed review (and is sent with its passed signature), a signature given by id or name must
 * have passed (SmsSignsService.usable), and the gates of product-spec §6 hold (SmsComplianceService):
 * SMS and voice need enterprise certification; domestic SMS, MMS and voice need a passed filing.
 */
export class TableSmsSendSources implements SmsSendSources {
  private readonly database: Database;
  private readonly now: () => number;
  private readonly templates = new TtlCache<SendableTemplate | AppError>();
  private readonly gateCache = new TtlCache<AppError | null>();
  private readonly signs: Pick<SmsSignsService, 'usable'>;
  private readonly compliance: Pick<SmsComplianceService, 'gates'>;
  private readonly used = new Map<number, number>();

  constructor(
    database: Database,
    deps: { signs: Pick<SmsSignsService, 'usable'>; compliance: Pick<SmsComplianceService, 'gates'> },
    now: () => number = Date.now,
  ) {
    this.database = database;
    this.signs = deps.signs;
    this.compliance = deps.compliance;
    this.now = now;
  }

  /**
   * Read through a cache of CACHE_MS: a busy sender asks for the same template and gates on
   * every call. A review, an edit or an operator's change reaches sending within CACHE_MS.
   */
  async template(accountId: number, templateId: number): Promise<SendableTemplate> {
    const found = await this.templates.get(`${accountId}:${templateId}`, this.now(), () =>
      this.readTemplate(accountId, templateId).catch((error: unknown) => {
        if (error instanceof AppError) return error;
        throw error;
      }),
    );
    if (found instanceof AppError) throw found;
    return found;
  }

  private async readTemplate(accountId: number, templateId: number): Promise<SendableTemplate> {
    const row = await this.database.db
      .selectFrom('sms_templates as t')
      .leftJoin('sms_signs as s', (join) =>
        join.onRef('s.id', '=', 't.sign_id').on('s.status', '=', 'passed'),
      )
      .select(['t.id', 't.kind', 't.region', 't.content', 't.status', 's.name as sign_name'])
      .where('t.account_id', '=', accountId)
      .where('t.id', '=', templateId)
      .executeTakeFirst();
    if (!row) throw new AppError('SMS_TEMPLATE_NOT_FOUND');
    if (row.status !== 'passed') throw new AppError('SMS_TEMPLATE_NOT_PASSED');
    return {
      id: Number(row.id),
      kind: row.kind,
      region: row.region,
      content: row.content,
      signName: row.sign_name ?? null,
    };
  }

  async signName(
    accountId: number,
    sign: { id?: number; name?: string },
    region: 'domestic' | 'international',
  ): Promise<string> {
    const by = sign.id !== undefined ? { id: sign.id } : sign.name ? { name: sign.name } : undefined;
    const found = by ? await this.signs.usable(accountId, by, region) : undefined;
    if (!found) throw new AppError('SMS_SIGN_UNUSABLE');
    return found.name;
  }

  async requireAllowed(accountId: number, msgType: number): Promise<void> {
    const refusal = await this.gateCache.get(`${accountId}:${msgType}`, this.now(), () =>
      this.checkAllowed(accountId, msgType).then(
        () => null,
        (error: unknown) => {
          if (error instanceof AppError) return error;
          throw error;
        },
      ),
    );
    if (refusal) throw refusal;
  }

  /** Product-spec §6 through the one place that reads it: SMS and voice need enterprise certification, domestic kinds a passed filing. */
  private async checkAllowed(accountId: number, msgType: number): Promise<void> {
    if (msgType === SMS_MSG_TYPES.international) return;
    const gates = await this.compliance.gates(accountId);
    const needsCertification = msgType === SMS_MSG_TYPES.sms || msgType === SMS_MSG_TYPES.voice;
    if (needsCertification && !gates.certified) {
      throw new AppError('SMS_NOT_ALLOWED', { reason: 'enterprise certification' });
    }
    if (!gates.filingPassed) throw new AppError('SMS_NOT_ALLOWED', { reason: 'SMS filing' });
  }

  /** Written at most once a minute per template: the month-long idle rule needs no finer time. */
  async templateUsed(accountId: number, templateId: number, at: number): Promise<void> {
    if ((this.used.get(templateId) ?? 0) > at - 60_000) return;
    if (this.used.size > 10_000) this.used.clear();
    this.used.set(templateId, at);
    await this.database.db
      .updateTable('sms_templates')
      .set({
        last_sent_at: sql`CASE WHEN last_sent_at IS NULL OR last_sent_at < ${at} THEN ${at} ELSE last_sent_at END`,
      })
      .where('account_id', '=', accountId)
      .where('id', '=', templateId)
      .execute();
  }
}

const CACHE_MS = 5_000;

/** Values kept CACHE_MS by key; one read at a time per key. */
class TtlCache<T> {
  private readonly entries = new Map<string, { value: Promise<T>; until: number }>();

  get(key: string, now: number, read: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    if (this.entries.size > 10_000) this.entries.clear();
    const value = read();
    this.entries.set(key, { value, until: now + CACHE_MS });
    value.catch(() => this.entries.delete(key));
    return value;
  }
}
