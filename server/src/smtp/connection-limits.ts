import type { Socket } from 'node:net';
import type { SMTPServer, SMTPServerDataStream, SMTPServerOptions } from 'smtp-server';
import type { Config } from '../config.ts';

/**
 * The limits every SMTP listener applies before any command is read: at most `maxConnections` at
 * once and `maxConnectionsPerIp` from one address (the next one hears 421 and is closed; trusted
 * relay networks are exempt from the per-address cap), a connection silent for `idleTimeoutMs`
 * is closed, and one open for `sessionMaxMs` is closed whatever it does, so a client dripping a
 * byte at a time cannot hold a connection for ever.
 */
export function connectionOptions(smtp: Config['smtp']): Partial<SMTPServerOptions> {
  return { maxClients: smtp.maxConnections, socketTimeout: smtp.idleTimeoutMs };
}

export function guardConnections(
  server: SMTPServer,
  smtp: Config['smtp'],
  exempt: (address: string) => boolean = () => false,
): void {
  const perAddress = new Map<string, number>();
  server.server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (perAddress.get(address) ?? 0) + 1;
    perAddress.set(address, count);
    const lifetime = setTimeout(() => {
      socket.end('421 4.4.2 Connection open too long, closing\r\n');
      socket.destroySoon();
    }, smtp.sessionMaxMs);
    lifetime.unref();
    socket.once('close', () => {
      clearTimeout(lifetime);
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
    if (count > smtp.maxConnectionsPerIp && !exempt(address)) {
      socket.end('421 4.7.0 Too many connections from your address, try again later\r\n');
      socket.destroySoon();
    }
  });
}

/**
 * Collects a message's DATA up to `maxBytes` and no further: past the limit the rest is read and
 * dropped (the client still gets its 552 at the end), so a huge message costs no memory.
 */
export function collectData(stream: SMTPServerDataStream, maxBytes: number): () => Buffer | null {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  stream.on('data', (chunk: Buffer) => {
    if (over) return;
    size += chunk.length;
    if (size > maxBytes) {
      over = true;
      chunks.length = 0;
      return;
    }
    chunks.push(chunk);
  });
  return () => (over || stream.sizeExceeded ? null : Buffer.concat(chunks));
}
