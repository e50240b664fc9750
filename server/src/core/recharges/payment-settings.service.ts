import {
  type AlipaySettingsInput,
  AppError,
  alipaySettingsSchema,
  type PaymentSettingsView,
  type PaypalSettingsInput,
  paypalSettingsSchema,
} from '@herald/shared';
import type { z } from 'zod';
import type { Database } from '../../db/database.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { AlipayClient } from './alipay-client.ts';
import { PaypalClient } from './paypal-client.ts';
import * as repo from './recharges.repo.ts';

type Provider = 'alipay' | 'paypal';

/** The fields an edit may leave empty to keep what is stored (the secrets). */
const KEPT_WHEN_EMPTY: Record<Provider, string[]> = {
  alipay: ['appPrivateKey', 'alipayPublicKey'],
  paypal: ['clientSecret'],
};

/**
 * The payment providers' merchant settings, as operators set them (`payments:set`, /admin): one
 * JSON per provider sealed at rest (SecretBox, bound to the provider), opened only to build the
 * provider's client. A view never carries a key or secret. The base URLs are settings too, so a
 * test or a sandbox points Herald at another gateway. A client is kept while its settings are
 * unchanged (PayPal's access token lives in it).
 */
export class PaymentSettingsService {
  private readonly database: Database;
  private readonly secretBox: SecretBox;
  private readonly now: () => number;
  private readonly clients = new Map<Provider, { updatedAt: number; client: AlipayClient | PaypalClient }>();

  constructor(database: Database, secretBox: SecretBox, now: () => number = Date.now) {
    this.database = database;
    this.secretBox = secretBox;
    this.now = now;
  }

  /** Alipay's settings and client; null when not set up, or switched off (unless `evenDisabled`: callbacks of earlier orders still count). */
  async alipay(options: { evenDisabled?: boolean } = {}) {
    const stored = await this.stored('alipay', alipaySettingsSchema, options);
    if (!stored) return null;
    return {
      settings: stored.settings,
      client: this.client(
        'alipay',
        stored.updatedAt,
        () => new AlipayClient(stored.settings),
      ) as AlipayClient,
    };
  }

  async paypal(options: { evenDisabled?: boolean } = {}) {
    const stored = await this.stored('paypal', paypalSettingsSchema, options);
    if (!stored) return null;
    return {
      settings: stored.settings,
      client: this.client(
        'paypal',
        stored.updatedAt,
        () => new PaypalClient(stored.settings),
      ) as PaypalClient,
    };
  }

  async views(): Promise<PaymentSettingsView[]> {
    return Promise.all((['alipay', 'paypal'] as const).map((p) => this.view(p)));
  }

  /** Sets a provider's settings; a secret left empty keeps the stored one. */
  async set(provider: Provider, input: unknown): Promise<PaymentSettingsView> {
    const given = {
      ...(typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {}),
    };
    const row = await repo.findSettings(this.database, provider);
    if (row) {
      const earlier = JSON.parse(this.secretBox.open(row.sealed, `payment:${provider}`)) as Record<
        string,
        unknown
      >;
      for (const key of KEPT_WHEN_EMPTY[provider]) {
        if (given[key] === undefined || given[key] === '') given[key] = earlier[key];
      }
    }
    const schema = provider === 'alipay' ? alipaySettingsSchema : paypalSettingsSchema;
    const parsed = schema.safeParse(given);
    if (!parsed.success) {
      const fields = [...new Set(parsed.error.issues.map((i) => i.path.join('.')))].join(', ');
      throw new AppError('PAYMENT_SETTINGS_INVALID', { reason: fields });
    }
    const sealed = this.secretBox.seal(JSON.stringify(parsed.data), `payment:${provider}`);
    await repo.saveSettings(this.database, provider, parsed.data.enabled, sealed, this.now());
    return this.view(provider);
  }

  private async view(provider: Provider): Promise<PaymentSettingsView> {
    const stored = await this.stored(
      provider,
      provider === 'alipay' ? alipaySettingsSchema : paypalSettingsSchema,
      {
        evenDisabled: true,
      },
    );
    if (!stored) {
      return {
        provider,
        configured: false,
        enabled: false,
        appId: null,
        endpoint: null,
        currency: null,
        rateFen: null,
        updatedAt: null,
      };
    }
    const s = stored.settings as Partial<AlipaySettingsInput & PaypalSettingsInput>;
    return {
      provider,
      configured: true,
      enabled: stored.settings.enabled,
      appId: s.appId ?? s.clientId ?? null,
      endpoint: s.gateway ?? s.apiBase ?? null,
      currency: provider === 'alipay' ? 'CNY' : (s.currency ?? null),
      rateFen: provider === 'alipay' ? 100 : (s.rateFen ?? null),
      updatedAt: stored.updatedAt,
    };
  }

  private async stored<S extends z.ZodType<{ enabled: boolean }>>(
    provider: Provider,
    schema: S,
    { evenDisabled = false }: { evenDisabled?: boolean },
  ): Promise<{ settings: z.output<S>; updatedAt: number } | null> {
    const row = await repo.findSettings(this.database, provider);
    if (!row || (!evenDisabled && row.enabled !== 1)) return null;
    const settings = schema.parse(JSON.parse(this.secretBox.open(row.sealed, `payment:${provider}`)));
    return { settings, updatedAt: Number(row.updated_at) };
  }

  private client(provider: Provider, updatedAt: number, make: () => AlipayClient | PaypalClient) {
    const kept = this.clients.get(provider);
    if (kept && kept.updatedAt === updatedAt) return kept.client;
    const client = make();
    this.clients.set(provider, { updatedAt, client });
    return client;
  }
}
