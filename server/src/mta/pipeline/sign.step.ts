import { type WireOptions, wireSafe } from '../../lib/mime-wire.ts';
import type { Logger } from '../../logger.ts';
import { type DkimKeyRef, DkimPool } from '../dkim/dkim-pool.ts';
import type { DkimKeys } from '../ports.ts';
import { isWireSafePieces, type MessagePieces } from './message-pieces.ts';

/**
 * DKIM: the sending domain's current key (asked of the DkimKeys port, parsed once), signing on the DkimPool's worker threads so the event loop keeps driving SMTP.
 * Keys are cached for a minute, so a rotation takes effect within one. A domain whose key cannot
 * be opened is sent unsigned and logged once per minute: that is an operator problem to fix, and
 * holding the customer's mail would not fix it.
 *
 * What is signed is what goes on the wire: the message is first made wire-safe (mime-wire.ts:
 * no line over 998 octets, 7-bit headers, and a 7-bit body unless the next hop takes 8BITMIME),
 * because re-encoding after signing would break the body hash. A recipient's copy stays in its
 * pieces through all of this (message-pieces.ts); only one that must be re-encoded is joined.
 */
const KEY_CACHE_MS = 60_000;

export class Signer {
  private pool: DkimPool | undefined;
  private readonly keys = new Map<string, { at: number; key: Promise<DkimKeyRef | null> }>();

  private readonly keySource: DkimKeys;

  private readonly logger: Logger;

  constructor(keySource: DkimKeys, logger: Logger) {
    this.keySource = keySource;
    this.logger = logger;
  }

  async sign(
    message: MessagePieces,
    accountId: number,
    domain: string,
    now: Date,
    wire: WireOptions = { eightBit: true },
  ): Promise<MessagePieces> {
    const safe = isWireSafePieces(message, wire) ? message : [wireSafe(Buffer.concat(message), wire)];
    const key = await this.key(accountId, domain);
    if (!key) return safe;
    this.pool ??= new DkimPool();
    const header = await this.pool.sign(safe, key, { now });
    return [Buffer.from(header, 'latin1'), ...safe];
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
    try {
      const key = await this.keySource.keyFor(accountId, domain);
      if (!key) this.logger.warn({ accountId, domain }, 'no sending domain row: mail goes out without DKIM');
      return key;
    } catch (error) {
      this.logger.warn(
        { accountId, domain, err: (error as Error).message },
        'DKIM key cannot be opened: mail goes out unsigned',
      );
      return null;
    }
  }
}
