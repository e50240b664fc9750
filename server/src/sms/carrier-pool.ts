import { SMS_CARRIER_REFRESH_MS } from '@herald/shared';
import type { Logger } from '../logger.ts';
import { carrierOpener } from './carriers/open-carrier.ts';
import {
  type CarrierConfig,
  type CarrierDirectory,
  type CarrierReply,
  type CarrierRoute,
  type DeliveryReceipt,
  type SmsCarrier,
  serviceCode,
} from './ports.ts';

interface OpenSession {
  config: CarrierConfig;
  carrier: SmsCarrier;
}

/** Carrier receipts, each with the connection it came on. */
export type PoolReceiptListener = (carrierId: number, receipt: DeliveryReceipt) => void;

/** Handsets' replies, each with the connection it came on. */
export type PoolReplyListener = (reply: CarrierReply) => void;

/**
 * The carrier connections of one worker: one long-lived session per carrier the operator
 * enabled, opened on first use, replaced when the operator changes it and closed when it is
 * disabled or removed. The directory (carriers and routes) is read again every `refreshMs`, so an
 * operator's change reaches running workers without a restart.
 */
export class CarrierPool {
  private readonly sessions = new Map<number, OpenSession>();
  private carriers = new Map<number, CarrierConfig>();
  private routes: CarrierRoute[] = [];
  private loadedAt = 0;
  private loading: Promise<void> | undefined;

  private readonly directory: CarrierDirectory;
  private readonly onReceipt: PoolReceiptListener;
  private readonly logger: Logger;
  private readonly refreshMs: number;
  private readonly onReply: PoolReplyListener | undefined;

  constructor(
    directory: CarrierDirectory,
    onReceipt: PoolReceiptListener,
    logger: Logger,
    options: { refreshMs?: number; onReply?: PoolReplyListener } = {},
  ) {
    this.directory = directory;
    this.onReceipt = onReceipt;
    this.logger = logger;
    this.refreshMs = options.refreshMs ?? SMS_CARRIER_REFRESH_MS;
    this.onReply = options.onReply;
  }

  /** Reads the directory again when it is older than refreshMs. */
  async refresh(now = Date.now()): Promise<void> {
    if (now - this.loadedAt < this.refreshMs) return;
    this.loading ??= this.load(now).finally(() => {
      this.loading = undefined;
    });
    await this.loading;
  }

  /** The carriers that may take this number, best first, without those already tried. */
  candidates(country: string, nationalNumber: string, kind: string, tried: number[]): CarrierConfig[] {
    return routeCarriers(this.routes, country, nationalNumber, kind)
      .filter((id) => !tried.includes(id))
      .map((id) => this.carriers.get(id))
      .filter((c): c is CarrierConfig => c !== undefined);
  }

  /** The open session of this carrier, opened now if need be. */
  session(config: CarrierConfig): SmsCarrier {
    const open = this.sessions.get(config.id);
    if (open && open.config.version === config.version) return open.carrier;
    if (open) this.closeSession(config.id);
    const onReply = this.onReply;
    const carrier = carrierOpener(
      {
        url: config.url,
        systemId: config.systemId,
        password: config.password,
        perSecond: config.perSecond,
        onMo:
          onReply && ((mo) => onReply({ ...mo, carrierId: config.id, carrierSource: serviceCode(config) })),
      },
      this.logger.child({ carrierId: config.id, carrierName: config.name }),
    )((receipt) => this.onReceipt(config.id, receipt));
    this.sessions.set(config.id, { config, carrier });
    return carrier;
  }

  async close(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(all.map((s) => s.carrier.close()));
  }

  private async load(now: number): Promise<void> {
    const { carriers, routes } = await this.directory.load();
    this.carriers = new Map(carriers.map((c) => [c.id, c]));
    this.routes = routes;
    this.loadedAt = now;
    for (const [id, open] of this.sessions) {
      const current = this.carriers.get(id);
      if (!current || current.version !== open.config.version) this.closeSession(id);
    }
  }

  private closeSession(id: number): void {
    const open = this.sessions.get(id);
    this.sessions.delete(id);
    open?.carrier.close().catch((error: unknown) => {
      this.logger.warn({ carrierId: id, err: (error as Error).message }, 'closing a carrier session failed');
    });
  }
}

/**
 * The carrier ids of the routes matching a number, best first: a route matches when its country
 * is the number's (or `*`), the national number starts with its prefix and its kind is the
 * message's (or `*`). A more specific route (country over `*`, a longer prefix) wins over a
 * general one; among equals the lower priority number goes first. Each carrier appears once.
 */
export function routeCarriers(
  routes: CarrierRoute[],
  country: string,
  nationalNumber: string,
  kind: string,
): number[] {
  const matching = routes.filter(
    (r) =>
      (r.country === '*' || r.country === country) &&
      nationalNumber.startsWith(r.prefix) &&
      (r.kind === '*' || r.kind === kind),
  );
  const specificity = (r: CarrierRoute) => (r.country === '*' ? 0 : 1000) + r.prefix.length;
  matching.sort((a, b) => specificity(b) - specificity(a) || a.priority - b.priority);
  return [...new Set(matching.map((r) => r.carrierId))];
}
