import { AppError, SMS_MSG_TYPES } from '@herald/shared';
import type { Caller } from '../context.ts';
import type { LabelsService } from '../labels/labels.service.ts';
import type { SmsComplianceService } from '../sms-compliance/sms-compliance.service.ts';
import type { SmsSignsService } from '../sms-signs/sms-signs.service.ts';
import type { SmsTemplatesService } from '../sms-templates/sms-templates.service.ts';
import type { SendableTemplate, SmsSendSources } from './sms-send.service.ts';

/**
 * What sending reads of templates, signatures, certification and filing: a template must have
 * passed review (and is sent with its passed signature), a signature given by id or name must
 * have passed (SmsSignsService.usable), and the gates of product-spec §6 hold (SmsComplianceService):
 * SMS and voice need enterprise certification; domestic SMS, MMS and voice need a passed filing.
 * A `labelId` must name one of the account's SMS labels.
 */
export class CoreSmsSendSources implements SmsSendSources {
  private readonly now: () => number;
  private readonly templateCache = new TtlCache<SendableTemplate | AppError>();
  private readonly gateCache = new TtlCache<AppError | null>();
  private readonly labelCache = new TtlCache<AppError | null>();
  private readonly signs: Pick<SmsSignsService, 'usable'>;
  private readonly templates: Pick<SmsTemplatesService, 'forSend' | 'markSent'>;
  private readonly compliance: Pick<SmsComplianceService, 'gates'>;
  private readonly labels: Pick<LabelsService, 'get'>;
  private readonly used = new Map<number, number>();

  constructor(
    deps: {
      signs: Pick<SmsSignsService, 'usable'>;
      compliance: Pick<SmsComplianceService, 'gates'>;
      templates: Pick<SmsTemplatesService, 'forSend' | 'markSent'>;
      /** The SMS channel's labels. */
      labels: Pick<LabelsService, 'get'>;
    },
    now: () => number = Date.now,
  ) {
    this.signs = deps.signs;
    this.templates = deps.templates;
    this.compliance = deps.compliance;
    this.labels = deps.labels;
    this.now = now;
  }

  /**
   * Read through a cache of CACHE_MS: a busy sender asks for the same template and gates on
   * every call. A review, an edit or an operator's change reaches sending within CACHE_MS.
   */
  async template({ accountId }: Caller, templateId: number): Promise<SendableTemplate> {
    const found = await this.templateCache.get(`${accountId}:${templateId}`, this.now(), () =>
      this.readTemplate(accountId, templateId).catch((error: unknown) => {
        if (error instanceof AppError) return error;
        throw error;
      }),
    );
    if (found instanceof AppError) throw found;
    return found;
  }

  private async readTemplate(accountId: number, templateId: number): Promise<SendableTemplate> {
    const template = await this.templates.forSend({ accountId }, templateId);
    return {
      id: template.id,
      kind: template.kind,
      region: template.region,
      content: template.content,
      signName: template.signName,
      guarded: template.kind === 'voice' || (template.kind === 'sms' && template.smsType === 'code'),
      trackLinks: template.kind === 'sms' && template.trackLinks,
      pages: template.pages,
    };
  }

  async signName(
    { accountId }: Caller,
    sign: { id?: number; name?: string },
    region: 'domestic' | 'international',
  ): Promise<string> {
    const by = sign.id !== undefined ? { id: sign.id } : sign.name ? { name: sign.name } : undefined;
    const found = by ? await this.signs.usable({ accountId }, by, region) : undefined;
    if (!found) throw new AppError('SMS_SIGN_UNUSABLE');
    return found.name;
  }

  async requireAllowed({ accountId }: Caller, msgType: number): Promise<void> {
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
    const gates = await this.compliance.gates({ accountId });
    const needsCertification = msgType === SMS_MSG_TYPES.sms || msgType === SMS_MSG_TYPES.voice;
    if (needsCertification && !gates.certified) {
      throw new AppError('SMS_NOT_ALLOWED', { reason: 'enterprise certification' });
    }
    if (!gates.filingPassed) throw new AppError('SMS_NOT_ALLOWED', { reason: 'SMS filing' });
  }

  async requireLabel({ accountId }: Caller, labelId: number): Promise<void> {
    const refusal = await this.labelCache.get(`${accountId}:${labelId}`, this.now(), () =>
      this.labels.get({ accountId }, labelId).then(
        () => null,
        (error: unknown) => {
          if (error instanceof AppError) return error;
          throw error;
        },
      ),
    );
    if (refusal) throw refusal;
  }

  /** Written at most once a minute per template: the month-long idle rule needs no finer time. */
  async templateUsed({ accountId }: Caller, templateId: number, at: number): Promise<void> {
    if ((this.used.get(templateId) ?? 0) > at - 60_000) return;
    if (this.used.size > 10_000) this.used.clear();
    this.used.set(templateId, at);
    await this.templates.markSent({ accountId }, templateId, at);
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
