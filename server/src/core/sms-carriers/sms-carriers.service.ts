import { AppError } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { CarrierConfig, CarrierDirectory, CarrierRoute } from '../../sms/ports.ts';
import * as repo from './sms-carriers.repo.ts';

export interface CarrierInput {
  name: string;
  url: string;
  systemId: string;
  password: string;
  sourceAddr?: string;
  perSecond?: number;
}

export interface RouteInput {
  carrier: string;
  /** ISO 3166 alpha-2 or `*`. */
  country: string;
  prefix?: string;
  kind?: 'sms' | 'voice' | 'mms' | '*';
  priority?: number;
}

export interface CarrierView {
  id: number;
  name: string;
  url: string;
  systemId: string;
  sourceAddr: string;
  perSecond: number;
  enabled: boolean;
  routes: Omit<CarrierRoute, 'carrierId'>[];
}

const SECRET_CONTEXT = 'sms_carrier';
const SCHEMES = new Set(['smpp:', 'cmpp:']);

/**
 * The carrier connections and routes the platform operator keeps (CLI `sms:*`): the password or
 * shared secret sealed at rest, opened only to hand the SMS channel its directory (the
 * `CarrierDirectory` port). A route sends a country (or every country, `*`), optionally only
 * numbers with a national prefix and only one kind of message, to a carrier; several routes for
 * one number fail over in priority order.
 */
export class SmsCarriersService implements CarrierDirectory {
  private readonly database: Database;
  private readonly secretBox: SecretBox;
  private readonly now: () => number;

  constructor(database: Database, secretBox: SecretBox, now: () => number = Date.now) {
    this.database = database;
    this.secretBox = secretBox;
    this.now = now;
  }

  async load(): Promise<{ carriers: CarrierConfig[]; routes: CarrierRoute[] }> {
    const rows = await repo.enabledCarriers(this.database);
    const routes = await repo.allRoutes(this.database);
    return {
      carriers: rows.map((r) => ({
        id: Number(r.id),
        name: r.name,
        url: r.url,
        systemId: r.system_id,
        password: this.secretBox.open(r.secret_sealed, SECRET_CONTEXT),
        sourceAddr: r.source_addr,
        perSecond: Number(r.per_second),
        version: Number(r.updated_at),
      })),
      routes: routes.map((r) => ({
        carrierId: Number(r.carrier_id),
        country: r.country,
        prefix: r.prefix,
        kind: r.kind,
        priority: Number(r.priority),
      })),
    };
  }

  /** Adds a carrier, or replaces the one of the same name (its routes stay). */
  async save(input: CarrierInput): Promise<CarrierView> {
    const url = new URL(input.url);
    if (!SCHEMES.has(url.protocol)) throw new AppError('SMS_CARRIER_SCHEME', { scheme: url.protocol });
    const now = this.now();
    const values = {
      url: input.url,
      system_id: input.systemId,
      secret_sealed: this.secretBox.seal(input.password, SECRET_CONTEXT),
      source_addr: input.sourceAddr ?? '',
      per_second: input.perSecond ?? 100,
      enabled: 1,
      updated_at: now,
    };
    await repo.upsertCarrier(this.database, { name: input.name, created_at: now, ...values }, values);
    return this.get(input.name);
  }

  async setEnabled(name: string, enabled: boolean): Promise<CarrierView> {
    await this.get(name);
    await repo.updateCarrier(this.database, name, { enabled: enabled ? 1 : 0, updated_at: this.now() });
    return this.get(name);
  }

  async remove(name: string): Promise<void> {
    const { id } = await this.get(name);
    await repo.deleteCarrier(this.database, id);
  }

  async addRoute(input: RouteInput): Promise<CarrierView> {
    const carrier = await this.get(input.carrier);
    const country = input.country.toUpperCase();
    if (country !== '*' && !/^[A-Z]{2}$/.test(country)) throw new AppError('SMS_ROUTE_COUNTRY', { country });
    if (input.prefix && !/^\d{1,15}$/.test(input.prefix)) throw new AppError('SMS_ROUTE_PREFIX');
    await repo.insertRoute(this.database, {
      carrier_id: carrier.id,
      country,
      prefix: input.prefix ?? '',
      kind: input.kind ?? '*',
      priority: input.priority ?? 0,
      created_at: this.now(),
    });
    return this.get(input.carrier);
  }

  async removeRoutes(carrierName: string, country: string): Promise<CarrierView> {
    const carrier = await this.get(carrierName);
    await repo.deleteRoutes(this.database, carrier.id, country.toUpperCase());
    return this.get(carrierName);
  }

  async list(): Promise<CarrierView[]> {
    const rows = await repo.carrierNames(this.database);
    return Promise.all(rows.map((r) => this.get(r.name)));
  }

  async get(name: string): Promise<CarrierView> {
    const row = await repo.findCarrier(this.database, name);
    if (!row) throw new AppError('SMS_CARRIER_NOT_FOUND', { name });
    const routes = await repo.routesOf(this.database, Number(row.id));
    return {
      id: Number(row.id),
      name: row.name,
      url: row.url,
      systemId: row.system_id,
      sourceAddr: row.source_addr,
      perSecond: Number(row.per_second),
      enabled: Number(row.enabled) === 1,
      routes: routes.map((r) => ({
        country: r.country,
        prefix: r.prefix,
        kind: r.kind,
        priority: Number(r.priority),
      })),
    };
  }
}
