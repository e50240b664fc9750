import type { MonitorConfigView, Thresholds } from '@herald/shared';
import { AppError, type MonitorConfigInput, monitorConfigInputSchema, type StatRates } from '@herald/shared';
import type { Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { StatMonitorConfigsTable } from '../../db/statistics-schema.ts';
import type { Caller } from '../context.ts';
import {
  deleteMonitorConfig,
  findMonitorConfigClash,
  insertMonitorConfig,
  listMonitorConfigs,
  type MonitorConfigColumns,
  updateMonitorConfig,
} from './monitor-configs.repo.ts';

/**
 * The receiving-domain monitor's thresholds (`/data/monitor/monitorConfig`): per account and
 * receiving domain, the lowest delivery rate, highest invalid rate and lowest open rate it
 * accepts. The monitor shows the major mailbox providers plus every domain with a threshold;
 * a domain without its own thresholds is held to DEFAULT_THRESHOLDS.
 */
export const MAJOR_DOMAINS = [
  'qq.com',
  '163.com',
  '126.com',
  'gmail.com',
  'outlook.com',
  'hotmail.com',
  'sina.com',
  'sohu.com',
  'yahoo.com',
  'foxmail.com',
  '139.com',
  'icloud.com',
];
export const MONITOR_CONFIGS_MAX = 50;

export const DEFAULT_THRESHOLDS: Thresholds = { minDeliveredRate: 90, maxInvalidRate: 5, minOpenRate: null };

function view(row: Selectable<StatMonitorConfigsTable>): MonitorConfigView {
  return {
    id: Number(row.id),
    recipientDomain: row.recipient_domain,
    minDeliveredRate: row.min_delivered_rate,
    maxInvalidRate: row.max_invalid_rate,
    minOpenRate: row.min_open_rate,
    updatedAt: Number(row.updated_at),
  };
}

const columns = (input: MonitorConfigInput): MonitorConfigColumns => ({
  recipient_domain: input.recipientDomain,
  min_delivered_rate: input.minDeliveredRate ?? null,
  max_invalid_rate: input.maxInvalidRate ?? null,
  min_open_rate: input.minOpenRate ?? null,
});

export class MonitorConfigs {
  private readonly database: Database;
  private readonly now: () => number;

  constructor(database: Database, now: () => number) {
    this.database = database;
    this.now = now;
  }

  async list({ accountId }: Caller): Promise<MonitorConfigView[]> {
    const rows = await listMonitorConfigs(this.database, accountId);
    return rows.map(view);
  }

  async create({ accountId }: Caller, body: unknown): Promise<MonitorConfigView> {
    const input = monitorConfigInputSchema.parse(body);
    const existing = await this.list({ accountId });
    if (existing.some((c) => c.recipientDomain === input.recipientDomain)) {
      throw new AppError('STAT_MONITOR_CONFIG_DUPLICATE', { name: input.recipientDomain });
    }
    if (existing.length >= MONITOR_CONFIGS_MAX)
      throw new AppError('STAT_MONITOR_CONFIG_LIMIT', { max: MONITOR_CONFIGS_MAX });
    const now = this.now();
    const row = await insertMonitorConfig(this.database, accountId, columns(input), now);
    return view(row);
  }

  async update({ accountId }: Caller, id: number, body: unknown): Promise<MonitorConfigView> {
    const input = monitorConfigInputSchema.parse(body);
    const clash = await findMonitorConfigClash(this.database, accountId, input.recipientDomain, id);
    if (clash) throw new AppError('STAT_MONITOR_CONFIG_DUPLICATE', { name: input.recipientDomain });
    const row = await updateMonitorConfig(this.database, accountId, id, {
      ...columns(input),
      updated_at: this.now(),
    });
    if (!row) throw new AppError('STAT_MONITOR_CONFIG_NOT_FOUND');
    return view(row);
  }

  async remove({ accountId }: Caller, id: number): Promise<void> {
    const deleted = await deleteMonitorConfig(this.database, accountId, id);
    if (deleted === 0) throw new AppError('STAT_MONITOR_CONFIG_NOT_FOUND');
  }

  /** The major providers, then the account's own watched domains. */
  watchedDomains(configs: MonitorConfigView[]): string[] {
    return [...new Set([...MAJOR_DOMAINS, ...configs.map((c) => c.recipientDomain)])];
  }

  thresholdsOf(configs: MonitorConfigView[], domain: string): Thresholds {
    const own = configs.find((c) => c.recipientDomain === domain);
    if (!own) return DEFAULT_THRESHOLDS;
    return {
      minDeliveredRate: own.minDeliveredRate,
      maxInvalidRate: own.maxInvalidRate,
      minOpenRate: own.minOpenRate,
    };
  }

  /** Which thresholds a domain's figures break; nothing sent breaks none. */
  breaches(f: StatRates & { requested: number; delivered: number }, t: Thresholds): string[] {
    if (f.requested === 0) return [];
    const out: string[] = [];
    if (t.minDeliveredRate !== null && f.deliveredRate < t.minDeliveredRate) out.push('delivered');
    if (t.maxInvalidRate !== null && f.invalidRate > t.maxInvalidRate) out.push('invalid');
    if (t.minOpenRate !== null && f.delivered > 0 && f.openRate < t.minOpenRate) out.push('open');
    return out;
  }
}
