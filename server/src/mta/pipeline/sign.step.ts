import { loadDkimKey } from '../../core/domains/dkim-key.ts';
import { findDomainByName } from '../../core/domains/domains.repo.ts';
import type { SecretBox } from '../../core/security/secret-box.ts';
import type { Database } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import { type DkimKeyRef, DkimPool } from '../dkim/dkim-pool.ts';

/**
 * DKIM: the sending domain's current key (sending_domains, opened with the secret box and
 * parsed once), signing on the DkimPool's worker threads so the event loop keeps driving SMTP.
 * Keys are cached for a minute, so a rotation takes effect within one. A domain whose key cannot
 * be opened is sent unsigned and logged once per minute: that is an operator problem to fix, and
 * holding the customer's mail would not fix it.
 */
const KEY_CACHE_MS = 60_000;

export class Signer {
  private pool: DkimPool | undefined;
  private readonly keys = new Map<string, { at: number; key: Promise<DkimKeyRef | null> }>();

  private readonly database: Database;

  private readonly secretBox: SecretBox;

  private readonly logger: Logger;

  constructor(database: Database, secretBox: SecretBox, logger: Logger) {
    this.database = database;

    this.secretBox = secretBox;

    this.logger = logger;
  }

  async sign(message: Buffer, accountId: number, domain: string, now: Date): Promise<Buffer> {
    const key = await this.key(accountId, domain);
    if (!key) return message;
    this.pool ??= new DkimPool();
    const header = await this.pool.sign(message, key, { now });
    return Buffer.concat([Buffer.from(header, 'latin1'), message]);
  }

  async close(): Promise<void> {
    await this.pool?.close();
    this.pool = undefined;
  }

  private key(accountId: number, domain: string): Promise<DkimKeyRef | null> {
    const id = `${accountId}:${domain}`;
    const cached = this.keys.get(id);
    if (cached && Date.now() - cached.at < KEY_CACHE_MS) return cached.key;
    const key = this.load(accountId, domain);
    this.keys.set(id, { at: Date.now(), key });
    return key;
  }

  private async load(accountId: number, domain: string): Promise<DkimKeyRef | null> {
    const row = await findDomainByName(this.database, accountId, domain);
    if (!row) {
      this.logger.warn({ accountId, domain }, 'no sending domain row: mail goes out without DKIM');
      return null;
    }
    try {
      const key = loadDkimKey(this.secretBox, row);
      return { id: `${row.id}:${row.dkim_selector}`, ...key };
    } catch (error) {
      this.logger.warn(
        { accountId, domain, err: (error as Error).message },
        'DKIM key cannot be opened: mail goes out unsigned',
      );
      return null;
    }
  }
}
