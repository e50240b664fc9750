import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A webhook receiver as a customer would run one: a plain node:http server on loopback that
 * records every POST (form fields, content type) and answers with the status `respond` picks.
 */
export interface Push {
  path: string;
  fields: Record<string, string>;
  contentType: string;
  at: number;
}

export interface Receiver {
  url: string;
  port: number;
  pushes: Push[];
  /** The status of the next answer; default 200. */
  respond: (push: Push, index: number) => number;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hook'): Promise<Receiver> {
  const pushes: Push[] = [];
  const receiver = { pushes, respond: () => 200 } as unknown as Receiver;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const push: Push = {
        path: req.url ?? '',
        fields: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))),
        contentType: String(req.headers['content-type'] ?? ''),
        at: Date.now(),
      };
      pushes.push(push);
      res.statusCode = receiver.respond(push, pushes.length - 1);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  Object.assign(receiver, {
    port,
    url: `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return receiver;
}

/** SendCloud's signature check, written out with node:crypto as a receiver would. */
export function signatureValid(fields: Record<string, string>, appKey: string): boolean {
  const expected = createHmac('sha256', appKey)
    .update(`${fields.timestamp ?? ''}${fields.token ?? ''}`)
    .digest('hex');
  return fields.signature === expected && /^[A-Za-z0-9]{50}$/.test(fields.token ?? '');
}
