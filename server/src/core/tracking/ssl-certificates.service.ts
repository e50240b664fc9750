import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { createSecureContext, type SecureContext } from 'node:tls';
import { AppError, SSL_MIN_VALID_DAYS, type SslCertificateView, type SslInput } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Logger } from '../../logger.ts';
import type { UserCaller } from '../context.ts';
import * as repo from './ssl-certificates.repo.ts';
import type { TrackingDomainsService } from './tracking-domains.service.ts';

const DAY_MS = 86_400_000;
/** How long the HTTPS listener trusts its cached context of a name before reading it again. */
const CACHE_MS = 60_000;

export interface SslCertificatesDeps {
  database: Database;
  secretBox: SecretBox;
  domains: TrackingDomainsService;
  logger: Logger;
  now?: () => number;
}

/**
 * HTTPS certificates of tracking domains (`/config/ssl`; product-spec §3, §5 "PEM certificate
 * valid for longer than a set number of days"). An upload is checked before it is kept: the
 * certificate parses, the key is its key, it is valid now and for more than SSL_MIN_VALID_DAYS,
 * it covers the domain, and the domain is one of the account's tracking domains. The private key
 * is sealed at rest, bound to the domain. The tracking HTTPS listener asks `contextFor(name)` on
 * each TLS handshake (SNI); contexts are cached per name and dropped on any change here.
 */
export class SslCertificatesService {
  private readonly deps: SslCertificatesDeps;
  private readonly now: () => number;
  private readonly cache = new Map<string, { at: number; context: SecureContext | null }>();

  constructor(deps: SslCertificatesDeps) {
    this.deps = deps;
    this.now = deps.now ?? Date.now;
  }

  async list(ctx: UserCaller): Promise<SslCertificateView[]> {
    const rows = await repo.listSslCertificates(this.deps.database.db, ctx.accountId);
    return rows.map(view);
  }

  /** Adds the domain's certificate, or replaces the one it had (a renewal). */
  async add(ctx: UserCaller, input: SslInput): Promise<SslCertificateView> {
    if (!(await this.deps.domains.findByName(ctx, input.domain))) {
      throw new AppError('SSL_DOMAIN_NOT_TRACKING', { name: input.domain });
    }
    const cert = this.check(input);
    const now = this.now();
    const values = {
      account_id: ctx.accountId,
      domain: input.domain,
      certificate: input.certificate,
      private_key_sealed: this.deps.secretBox.seal(input.privateKey, sealContext(input.domain)),
      subject: cert.subject.replace(/\n/g, ', '),
      issuer: cert.issuer.replace(/\n/g, ', '),
      fingerprint: cert.fingerprint256,
      valid_from: cert.validFromDate.getTime(),
      valid_to: cert.validToDate.getTime(),
      created_at: now,
      updated_at: now,
    };
    const db = this.deps.database.db;
    await repo.upsertSslCertificate(db, values);
    this.forget(input.domain);
    const row = await repo.getSslCertificateByDomain(db, ctx.accountId, input.domain);
    return view(row);
  }

  async remove(ctx: UserCaller, id: number): Promise<void> {
    const db = this.deps.database.db;
    const row = await repo.findSslCertificate(db, ctx.accountId, id);
    if (!row) throw new AppError('SSL_NOT_FOUND');
    await repo.deleteSslCertificateById(db, row.id);
    this.forget(row.domain);
  }

  /** The TLS context for an SNI name, or null when no valid certificate is uploaded for it. */
  async contextFor(servername: string): Promise<SecureContext | null> {
    const name = servername.toLowerCase().replace(/\.$/, '');
    const cached = this.cache.get(name);
    if (cached && this.now() - cached.at < CACHE_MS) return cached.context;
    const row = await repo.findServingCertificate(this.deps.database.db, name);
    let context: SecureContext | null = null;
    if (row && Number(row.valid_to) > this.now()) {
      try {
        const key = this.deps.secretBox.open(row.private_key_sealed, sealContext(name));
        context = createSecureContext({ cert: row.certificate, key });
      } catch (error) {
        this.deps.logger.error({ err: error, domain: name }, 'a stored tracking certificate cannot be used');
      }
    }
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(name, { at: this.now(), context });
    return context;
  }

  /** Drops the cached context of a name (its certificate or domain changed in this process). */
  forget(name: string): void {
    this.cache.delete(name);
  }

  private check(input: SslInput): X509Certificate {
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(input.certificate);
    } catch {
      throw new AppError('SSL_CERT_INVALID');
    }
    let key: KeyObject;
    try {
      key = createPrivateKey(input.privateKey);
    } catch {
      throw new AppError('SSL_KEY_INVALID');
    }
    if (!cert.checkPrivateKey(key)) throw new AppError('SSL_KEY_MISMATCH');
    const now = this.now();
    if (cert.validToDate.getTime() <= now || cert.validFromDate.getTime() > now) {
      throw new AppError('SSL_CERT_EXPIRED');
    }
    if (cert.validToDate.getTime() - now <= SSL_MIN_VALID_DAYS * DAY_MS) {
      throw new AppError('SSL_CERT_EXPIRES_SOON', { days: SSL_MIN_VALID_DAYS });
    }
    if (!cert.checkHost(input.domain)) throw new AppError('SSL_CERT_WRONG_DOMAIN', { name: input.domain });
    return cert;
  }
}

const sealContext = (domain: string) => `ssl-certificate:${domain}`;

function view(row: repo.SslCertificateRow): SslCertificateView {
  return {
    id: Number(row.id),
    domain: row.domain,
    subject: row.subject,
    issuer: row.issuer,
    validFrom: Number(row.valid_from),
    validTo: Number(row.valid_to),
    fingerprint: row.fingerprint,
    createdAt: Number(row.created_at),
  };
}
