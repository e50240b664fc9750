/**
 * A DNS server on loopback that answers from a table the test fills. It listens on UDP and TCP on
 * the same port because that is what a resolver configured with one "ip:port" expects: Node's
 * c-ares resolver (and Herald's configurable resolver on top of it) queries over UDP and retries
 * over TCP when a reply comes back truncated. Replies bigger than 512 bytes (or the client's EDNS
 * payload size) are truncated on UDP, so large TXT records really travel over TCP. Answers are
 * built with dns-packet; the rules live in dns-zone.ts. Failures are scriptable per name:
 * SERVFAIL, or 'timeout' (the query is dropped, never answered).
 */
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server, type Socket } from 'node:net';
import dnsPacket, { type DecodedPacket, type Packet } from 'dns-packet';
import {
  createZone,
  type DnsFailure,
  type DnsRecordsByType,
  type DnsRecordType,
  normalizeName,
  RCODE,
} from './dns-zone.ts';

export type { DnsFailure, DnsRecordsByType, DnsRecordType, MxRecord } from './dns-zone.ts';

export interface DnsServerOptions {
  host?: string;
  /** 0 (default) picks a port that is free for both UDP and TCP. */
  port?: number;
  /** TTL put on every answer, in seconds. Default 0, so no resolver cache hides table changes. */
  ttl?: number;
}

export interface DnsQuery {
  /** Lower-cased, without trailing dot. */
  name: string;
  type: string;
  transport: 'udp' | 'tcp';
}

export interface DnsServer {
  readonly host: string;
  readonly port: number;
  /** 'HOST:PORT', ready for `resolver.setServers([dns.address])`. */
  readonly address: string;
  /** Every question received, oldest first. */
  readonly queries: DnsQuery[];
  /** Replaces the records of one type at a name (case-insensitive, trailing dot optional). */
  set<T extends DnsRecordType>(name: string, type: T, records: DnsRecordsByType[T]): void;
  /** Removes one type at a name, or the whole name. */
  remove(name: string, type?: DnsRecordType): void;
  /** Makes every query for the name fail; `null` lifts the failure. */
  fail(name: string, failure: DnsFailure | null): void;
  /** Forgets all records, failures and the query log. */
  clear(): void;
  close(): Promise<void>;
}

const UDP_DEFAULT_MAX = 512;

function respond(query: DecodedPacket, rcode: number, answers: Packet['answers']): Packet {
  const rd = (query.flags ?? 0) & dnsPacket.RECURSION_DESIRED;
  return {
    type: 'response',
    id: query.id ?? 0,
    flags: dnsPacket.AUTHORITATIVE_ANSWER | rd | rcode,
    questions: query.questions ?? [],
    answers: answers ?? [],
  };
}

async function bindBoth(host: string, port: number): Promise<{ udp: UdpSocket; tcp: Server }> {
  for (let attempt = 0; ; attempt += 1) {
    const udp = createSocket(host.includes(':') ? 'udp6' : 'udp4');
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(port, host, () => {
        udp.off('error', reject);
        resolve();
      });
    });
    const chosen = udp.address().port;
    const tcp = createServer();
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(chosen, host, () => {
          tcp.off('error', reject);
          resolve();
        });
      });
      return { udp, tcp };
    } catch (error) {
      udp.close();
      // Only an ephemeral pick can be retried; a fixed port that is taken is the caller's problem.
      if (port !== 0 || attempt >= 20) throw error;
    }
  }
}

export async function startDnsServer(options: DnsServerOptions = {}): Promise<DnsServer> {
  const host = options.host ?? '127.0.0.1';
  const zone = createZone(options.ttl ?? 0);
  const queries: DnsQuery[] = [];
  const tcpSockets = new Set<Socket>();

  /** Returns the query and the reply to send, or null to stay silent. */
  const handle = (
    message: Buffer,
    transport: 'udp' | 'tcp',
  ): { query: DecodedPacket; reply: Packet } | null => {
    let query: DecodedPacket;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return null;
    }
    if (query.type !== 'query') return null;
    const question = query.questions?.[0];
    if (!question) return { query, reply: respond(query, RCODE.FORMERR, []) };
    queries.push({ name: normalizeName(question.name), type: question.type, transport });
    const result = zone.lookup(question.name, question.type);
    if (result.kind === 'timeout') return null;
    return { query, reply: respond(query, result.rcode, result.answers) };
  };

  const { udp, tcp } = await bindBoth(host, options.port ?? 0);
  const port = udp.address().port;

  udp.on('message', (message, remote) => {
    const handled = handle(message, 'udp');
    if (!handled) return;
    const { query, reply } = handled;
    const opt = query.additionals?.find((a) => a.type === 'OPT');
    const max =
      opt && 'udpPayloadSize' in opt ? Math.max(UDP_DEFAULT_MAX, opt.udpPayloadSize) : UDP_DEFAULT_MAX;
    let wire = dnsPacket.encode(reply);
    if (wire.length > max) {
      wire = dnsPacket.encode({
        ...reply,
        flags: (reply.flags ?? 0) | dnsPacket.TRUNCATED_RESPONSE,
        answers: [],
      });
    }
    udp.send(wire, remote.port, remote.address);
  });
  udp.on('error', () => {
    // ICMP port-unreachable from a client that went away; nothing to do.
  });

  tcp.on('connection', (socket) => {
    tcpSockets.add(socket);
    let pending = Buffer.alloc(0);
    socket.on('data', (data: Buffer) => {
      pending = Buffer.concat([pending, data]);
      while (pending.length >= 2) {
        const length = pending.readUInt16BE(0);
        if (pending.length < 2 + length) break;
        const handled = handle(pending.subarray(2, 2 + length), 'tcp');
        pending = pending.subarray(2 + length);
        if (handled) socket.write(dnsPacket.streamEncode(handled.reply));
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => tcpSockets.delete(socket));
  });

  let closing: Promise<void> | undefined;
  return {
    host,
    port,
    address: host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`,
    queries,
    set: zone.set,
    remove: zone.remove,
    fail: zone.fail,
    clear() {
      zone.clear();
      queries.length = 0;
    },
    close() {
      closing ??= Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => {
          tcp.close(() => resolve());
          for (const socket of tcpSockets) socket.destroy();
        }),
      ]).then(() => undefined);
      return closing;
    },
  };
}
