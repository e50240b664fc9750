import {
  AppError,
  SMS_CARRIER_NAME_PATTERN,
  SMS_CARRIER_PER_SECOND_DEFAULT,
  SMS_ROUTE_COUNTRY_PATTERN,
  SMS_ROUTE_PREFIX_PATTERN,
  type SmsCarrierView,
  smsCarrierUrlProblem,
} from '@herald/shared';
import type { Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { SmsCarriersTable } from '../../db/sms-schema.ts';
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

/** An edit of a carrier: an empty password keeps the sealed one. */
export type CarrierChanges = Omit<CarrierInput, 'name'>;

export interface RouteInput {
  carrier: string;
  /** ISO 3166 alpha-2 or `*`. */
  country: string;
  prefix?: string;
  kind?: 'sms' | 'voice' | 'mms' | '*';
  priority?: number;
}

export type CarrierView = SmsCarrierView;

const SECRET_CONTEXT = 'sms_carrier';

/**
 * The carrier connections and routes the platform operator keeps, from the CLI (`sms:*`) and
 * /admin/smsCarriers alike: the password or shared secret sealed at rest, opened only to hand the
 * SMS channel its directory (the `CarrierDirectory` port), never answered. A route sends a country
 * (or every country, `*`), optionally only numbers with a national prefix and only one kind of
 * message, to a carrier; several routes for one number fail over in priority order. Workers read
 * the directory again every few seconds (CarrierPool), so a change needs no restart; an edited
 * carrier gets a new `updated_at`, which makes each worker replace its open session.
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

  /** Adds a carrier, or replaces the one of the same name and enables it (its routes stay): the CLI. */
  async save(input: CarrierInput): Promise<CarrierView> {
    const existing = await repo.findCarrier(this.database, input.name);
    if (!existing) checkName(input.name);
    if (!input.password) throw new AppError('SMS_CARRIER_PASSWORD_REQUIRED');
    const now = this.now();
    const values = { ...this.fields(input, this.secretBox.seal(input.password, SECRET_CONTEXT)), enabled: 1 };
    await repo.upsertCarrier(this.database, { name: input.name, created_at: now, ...values }, values);
    return this.get(input.name);
  }

  /** Adds a carrier under a name no other has: the admin screen's "add". */
  async create(input: CarrierInput): Promise<CarrierView> {
    if (await repo.findCarrier(this.database, input.name)) {
      throw new AppError('SMS_CARRIER_NAME_TAKEN', { name: input.name });
    }
    return this.save(input);
  }

  /** Changes a carrier's connection, keeping its name, state, routes and (if none is given) password. */
  async update(name: string, changes: CarrierChanges): Promise<CarrierView> {
    const row = await this.row(name);
    const sealed = changes.password
      ? this.secretBox.seal(changes.password, SECRET_CONTEXT)
      : row.secret_sealed;
    await repo.updateCarrier(this.database, name, this.fields(changes, sealed));
    return this.get(name);
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
    const country = input.country.trim().toUpperCase();
    if (!SMS_ROUTE_COUNTRY_PATTERN.test(country)) throw new AppError('SMS_ROUTE_COUNTRY', { country });
    const prefix = input.prefix?.trim() ?? '';
    if (!SMS_ROUTE_PREFIX_PATTERN.test(prefix)) throw new AppError('SMS_ROUTE_PREFIX');
    await repo.insertRoute(this.database, {
      carrier_id: carrier.id,
      country,
      prefix,
      kind: input.kind ?? '*',
      priority: input.priority ?? 0,
      created_at: this.now(),
    });
    return this.get(input.carrier);
  }

  /** Removes one route of the carrier (the admin screen); `removeRoutes` removes a country's. */
  async removeRoute(carrierName: string, routeId: number): Promise<CarrierView> {
    const carrier = await this.get(carrierName);
    if (!(await repo.deleteRoute(this.database, carrier.id, routeId)))
      throw new AppError('SMS_ROUTE_NOT_FOUND');
    return this.get(carrierName);
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
    const row = await this.row(name);
    const routes = await repo.routesOf(this.database, Number(row.id));
    const url = parseUrl(row.url);
    return {
      id: Number(row.id),
      name: row.name,
      url: row.url,
      protocol: url?.protocol.replace(/:$/, '') ?? '',
      host: url?.host ?? '',
      systemId: row.system_id,
      sourceAddr: row.source_addr,
      perSecond: Number(row.per_second),
      enabled: Number(row.enabled) === 1,
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
      routes: routes.map((r) => ({
        id: Number(r.id),
        country: r.country,
        prefix: r.prefix,
        kind: r.kind,
        priority: Number(r.priority),
      })),
    };
  }

  private async row(name: string): Promise<Selectable<SmsCarriersTable>> {
    const row = await repo.findCarrier(this.database, name);
    if (!row) throw new AppError('SMS_CARRIER_NOT_FOUND', { name });
    return row;
  }

  /** The connection's columns, checked; the URL's scheme names the protocol. */
  private fields(input: CarrierChanges, secretSealed: string) {
    const problem = smsCarrierUrlProblem(input.url);
    if (problem === 'scheme') {
      throw new AppError('SMS_CARRIER_SCHEME', { scheme: parseUrl(input.url)?.protocol ?? '' });
    }
    if (problem === 'connections') throw new AppError('SMS_CARRIER_CONNECTIONS');
    if (problem) throw new AppError('SMS_CARRIER_URL');
    return {
      url: input.url,
      system_id: input.systemId,
      secret_sealed: secretSealed,
      source_addr: input.sourceAddr ?? '',
      per_second: input.perSecond ?? SMS_CARRIER_PER_SECOND_DEFAULT,
      updated_at: this.now(),
    };
  }
}

function checkName(name: string): void {
  if (!SMS_CARRIER_NAME_PATTERN.test(name)) throw new AppError('SMS_CARRIER_NAME');
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
