import os from 'node:os';

/**
 * SendCloud-style message ids (reference §7): `<ms>_<process>_<sequence>_<random>.sc-<host>-inbound`.
 * The millisecond, the process and a per-process sequence make an id unique without a database
 * round trip; the random part guards against a restarted process reusing a pid within one
 * millisecond. An emailId is the messageId, the recipient's index and `$` and the address.
 */
export class MessageIds {
  private readonly host: string;
  private readonly processTag: number;
  private sequence = 0;

  constructor(hostname: string | undefined) {
    this.host = (hostname ?? os.hostname()).replace(/[^A-Za-z0-9]+/g, '_').slice(0, 40) || 'herald';
    this.processTag = process.pid % 100_000;
  }

  next(now: number): string {
    this.sequence = (this.sequence + 1) % 1_000_000_000;
    const random = Math.floor(Math.random() * 10_000);
    return `${now}_${this.processTag}_${this.sequence}_${random}.sc-${this.host}-inbound`;
  }
}

export function emailIdOf(messageId: string, index: number, recipient: string): string {
  return `${messageId}${index}$${recipient}`;
}
