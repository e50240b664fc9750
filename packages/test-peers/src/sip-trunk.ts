/**
 * A carrier's SIP trunk on loopback (RFC 3261 over UDP and TCP on the same port), so Herald's
 * voice-code calls are placed, answered and heard as by a real one. Every INVITE is challenged for
 * an MD5 digest (RFC 2617, with qop=auth) when the trunk has credentials; then the called number's
 * script decides: answer (100, 180, 200 with an SDP answer, then the call's RTP is received until
 * BYE), busy (486), no answer (ringing until CANCEL, then 487), reject (403 or the status given) or
 * unavailable (503). Final answers are sent again until their ACK arrives, as over UDP they must be (and, for a
 * 2xx, over TCP too: RFC 3261 §13.3.1.4). On TCP each message is framed by its Content-Length.
 *
 * Each call records what a listener would have heard: the RTP payloads (G.711 µ-law) in sequence
 * order, so a test compares the exact bytes with the prompts Herald plays.
 */
import { createHash, randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';
import { createWaiter } from './waiter.ts';

export type SipCallBehaviour =
  | { kind: 'answer'; ringMs?: number }
  | { kind: 'busy' }
  | { kind: 'no-answer' }
  | { kind: 'reject'; status?: number }
  | { kind: 'unavailable' };

export interface SipTrunkOptions {
  host?: string;
  port?: number;
  /** Digest credentials every INVITE must carry; without them every INVITE is taken as it comes. */
  username?: string;
  password?: string;
  realm?: string;
  /** Challenge with 407 (a proxy) instead of 401. */
  proxyChallenge?: boolean;
  /** Refuse every INVITE with this status (e.g. 503), before any challenge: a trunk in trouble. */
  refuseAll?: number;
}

export interface RtpPacket {
  sequence: number;
  timestamp: number;
  ssrc: number;
  payloadType: number;
  marker: boolean;
  payload: Buffer;
  receivedAt: number;
}

export interface SipTrunkCall {
  callId: string;
  /** The called number: the Request-URI's user part. */
  number: string;
  /** The calling number: the From URI's user part. */
  caller: string;
  /** The INVITE was challenged first. */
  challenged: boolean;
  /** A digest answer was checked and right. */
  authorized: boolean;
  /** The transport the INVITE came over. */
  transport: 'udp' | 'tcp';
  /** What the trunk did, per its script. */
  behaviour: SipCallBehaviour['kind'];
  /** The status of the INVITE's final answer. */
  finalStatus: number | undefined;
  acked: boolean;
  cancelled: boolean;
  /** A BYE came. */
  hungUp: boolean;
  /** The RTP received, in arrival order. */
  packets: RtpPacket[];
  /** The payloads in sequence order: the µ-law a listener heard. */
  readonly audio: Buffer;
}

export interface SipTrunk {
  readonly host: string;
  readonly port: number;
  /** Calls the trunk took past its challenge (and those `refuseAll` refused), oldest first. */
  readonly calls: SipTrunkCall[];
  /** INVITE datagrams received, retransmissions and challenged ones included. */
  readonly invites: number;
  script(number: string, behaviour: SipCallBehaviour): void;
  /** Resolves once at least `count` calls were taken (default timeout 5000 ms). */
  waitForCalls(count: number, timeoutMs?: number): Promise<SipTrunkCall[]>;
  close(): Promise<void>;
}

/** Sends a message back the way its request came. */
type Back = (data: Buffer) => void;

interface Request {
  method: string;
  uri: string;
  headers: Map<string, string[]>;
  body: string;
}

interface CallState {
  call: SipTrunkCall;
  cseq: string;
  toTag: string;
  lastFinal: Buffer | undefined;
  resend: NodeJS.Timeout | undefined;
  rtp: dgram.Socket | undefined;
  timers: NodeJS.Timeout[];
}

const T1 = 500;
const COMPACT: Record<string, string> = {
  i: 'call-id',
  f: 'from',
  t: 'to',
  v: 'via',
  m: 'contact',
  l: 'content-length',
};

export async function startSipTrunk(options: SipTrunkOptions = {}): Promise<SipTrunk> {
  const host = options.host ?? '127.0.0.1';
  const realm = options.realm ?? 'trunk.test';
  const socket = dgram.createSocket('udp4');
  const connections = new Set<net.Socket>();
  const calls: SipTrunkCall[] = [];
  const states = new Map<string, CallState>();
  const nonces = new Set<string>();
  const scripts = new Map<string, SipCallBehaviour>();
  const waiter = createWaiter(() => calls, 'sip-trunk');
  let invites = 0;

  const respond = (
    request: Request,
    status: number,
    reason: string,
    extra: [string, string][] = [],
    body = '',
  ) => {
    const lines = [`SIP/2.0 ${status} ${reason}`];
    for (const via of request.headers.get('via') ?? []) lines.push(`Via: ${via}`);
    const state = states.get(first(request, 'call-id'));
    const to = first(request, 'to');
    const tag = state && status > 100 && !/;tag=/.test(to) ? `;tag=${state.toTag}` : '';
    lines.push(`From: ${first(request, 'from')}`, `To: ${to}${tag}`, `Call-ID: ${first(request, 'call-id')}`);
    lines.push(`CSeq: ${first(request, 'cseq')}`);
    for (const [name, value] of extra) lines.push(`${name}: ${value}`);
    lines.push(`Content-Length: ${Buffer.byteLength(body)}`, '', body);
    return Buffer.from(lines.join('\r\n'));
  };

  /** A final answer to the INVITE, sent again at T1, 2·T1… until its ACK. */
  const final = (state: CallState, back: Back, message: Buffer, status: number) => {
    state.call.finalStatus = status;
    state.lastFinal = message;
    let interval = T1;
    const again = () => {
      if (state.call.acked || interval > 32 * T1) return;
      back(message);
      state.resend = setTimeout(again, interval);
      interval *= 2;
    };
    again();
  };

  const challenge = (request: Request, back: Back) => {
    const nonce = randomBytes(12).toString('hex');
    nonces.add(nonce);
    const name = options.proxyChallenge ? 'Proxy-Authenticate' : 'WWW-Authenticate';
    const status = options.proxyChallenge ? 407 : 401;
    const reason = options.proxyChallenge ? 'Proxy Authentication Required' : 'Unauthorized';
    const offer = `Digest realm="${realm}", nonce="${nonce}", algorithm=MD5, qop="auth"`;
    back(respond(request, status, reason, [[name, offer]]));
  };

  const authorized = (request: Request): boolean => {
    const value = first(request, options.proxyChallenge ? 'proxy-authorization' : 'authorization');
    const params = digestParams(value);
    if (!params || params.username !== options.username || params.realm !== realm) return false;
    if (!nonces.has(params.nonce ?? '')) return false;
    const ha1 = md5(`${options.username}:${realm}:${options.password}`);
    const ha2 = md5(`INVITE:${params.uri}`);
    const expected =
      params.qop === 'auth'
        ? md5(`${ha1}:${params.nonce}:${params.nc}:${params.cnonce}:auth:${ha2}`)
        : md5(`${ha1}:${params.nonce}:${ha2}`);
    return params.response === expected;
  };

  const invite = (request: Request, back: Back, transport: 'udp' | 'tcp') => {
    invites += 1;
    const callId = first(request, 'call-id');
    const cseq = first(request, 'cseq');
    const known = states.get(callId);
    if (known && known.cseq === cseq) {
      // A retransmission: the answer it is missing, if any.
      if (known.lastFinal) back(known.lastFinal);
      return;
    }
    const needsAuth = options.refuseAll === undefined && options.password !== undefined;
    if (needsAuth && !authorized(request)) {
      if (!known) states.set(callId, newState(callId, cseq, request));
      else known.cseq = cseq;
      (states.get(callId) as CallState).call.challenged = true;
      return challenge(request, back);
    }
    const state = known ?? newState(callId, cseq, request);
    state.cseq = cseq;
    states.set(callId, state);
    state.call.authorized = needsAuth;
    state.call.transport = transport;
    calls.push(state.call);
    waiter.notify();
    if (options.refuseAll !== undefined) {
      state.call.behaviour = 'unavailable';
      return final(
        state,
        back,
        respond(request, options.refuseAll, 'Service Unavailable'),
        options.refuseAll,
      );
    }
    const behaviour = scripts.get(state.call.number) ?? { kind: 'answer' };
    state.call.behaviour = behaviour.kind;
    back(respond(request, 100, 'Trying'));
    switch (behaviour.kind) {
      case 'busy':
        return final(state, back, respond(request, 486, 'Busy Here'), 486);
      case 'unavailable':
        return final(state, back, respond(request, 503, 'Service Unavailable'), 503);
      case 'reject': {
        const status = behaviour.status ?? 403;
        return final(state, back, respond(request, status, 'Rejected'), status);
      }
      case 'no-answer':
        back(respond(request, 180, 'Ringing'));
        return;
      case 'answer': {
        back(respond(request, 180, 'Ringing'));
        state.timers.push(
          setTimeout(() => void answer(state, request, back, transport), behaviour.ringMs ?? 50),
        );
      }
    }
  };

  const answer = async (state: CallState, request: Request, back: Back, transport: 'udp' | 'tcp') => {
    const rtp = await listenRtp(host, state.call);
    state.rtp = rtp;
    const port = rtp.address().port;
    const sdp = [
      'v=0',
      `o=trunk 1 1 IN IP4 ${host}`,
      's=call',
      `c=IN IP4 ${host}`,
      't=0 0',
      `m=audio ${port} RTP/AVP 0`,
      'a=rtpmap:0 PCMU/8000',
      'a=recvonly',
      '',
    ].join('\r\n');
    const ok = respond(
      request,
      200,
      'OK',
      [
        [
          'Contact',
          `<sip:${state.call.number}@${host}:${socket.address().port}${transport === 'tcp' ? ';transport=tcp' : ''}>`,
        ],
        ['Content-Type', 'application/sdp'],
      ],
      sdp,
    );
    final(state, back, ok, 200);
  };

  const newState = (callId: string, cseq: string, request: Request): CallState => {
    const packets: RtpPacket[] = [];
    const call: SipTrunkCall = {
      callId,
      number: userOf(request.uri),
      caller: userOf(first(request, 'from')),
      challenged: false,
      authorized: false,
      transport: 'udp',
      behaviour: 'answer',
      finalStatus: undefined,
      acked: false,
      cancelled: false,
      hungUp: false,
      packets,
      get audio() {
        const start = packets[0]?.sequence ?? 0;
        const ordered = [...packets].sort(
          (a, b) => ((a.sequence - start) & 0xffff) - ((b.sequence - start) & 0xffff),
        );
        return Buffer.concat(ordered.map((p) => p.payload));
      },
    };
    return {
      call,
      cseq,
      toTag: randomBytes(4).toString('hex'),
      lastFinal: undefined,
      resend: undefined,
      rtp: undefined,
      timers: [],
    };
  };

  const handle = (data: Buffer, back: Back, transport: 'udp' | 'tcp') => {
    const request = parseRequest(data);
    if (!request) return;
    const state = states.get(first(request, 'call-id'));
    switch (request.method) {
      case 'INVITE':
        return invite(request, back, transport);
      case 'ACK':
        // The ACK of a final answer (not of a challenge, whose INVITE is answered again later).
        if (
          state &&
          state.call.finalStatus !== undefined &&
          cseqNumber(request) === state.cseq.split(' ')[0]
        ) {
          state.call.acked = true;
          clearTimeout(state.resend);
        }
        return;
      case 'CANCEL':
        back(respond(request, state ? 200 : 481, state ? 'OK' : 'Call/Transaction Does Not Exist'));
        if (state && state.call.finalStatus === undefined) {
          state.call.cancelled = true;
          const inviteRequest = { ...request, headers: new Map(request.headers) };
          inviteRequest.headers.set('cseq', [first(request, 'cseq').replace(/CANCEL$/, 'INVITE')]);
          final(state, back, respond(inviteRequest, 487, 'Request Terminated'), 487);
        }
        return;
      case 'BYE':
        back(respond(request, state ? 200 : 481, state ? 'OK' : 'Call/Transaction Does Not Exist'));
        if (state) {
          state.call.hungUp = true;
          // The last packets may still be on their way.
          state.timers.push(setTimeout(() => state.rtp?.close(), 200));
        }
        return;
      default:
        back(respond(request, 200, 'OK'));
    }
  };
  socket.on('message', (data, from) => handle(data, (d) => socket.send(d, from.port, from.address), 'udp'));
  const tcp = net.createServer((connection) => {
    connections.add(connection);
    connection.on('close', () => connections.delete(connection));
    connection.on('error', () => {});
    let pending: Buffer = Buffer.alloc(0);
    connection.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const { message, rest } = frame(pending);
        if (!message) break;
        pending = rest;
        handle(message, (d) => void connection.write(d), 'tcp');
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(options.port ?? 0, host, () => resolve());
  });
  // TCP on the same port as UDP, as SIP has it (5060 for both).
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(socket.address().port, host, () => resolve());
  });

  return {
    host,
    port: socket.address().port,
    calls,
    get invites() {
      return invites;
    },
    script: (number, behaviour) => void scripts.set(number.replace(/^\+/, ''), behaviour),
    waitForCalls: (count, timeoutMs = 5000) => waiter.waitFor(count, timeoutMs),
    close: async () => {
      waiter.cancelAll('closed');
      for (const state of states.values()) {
        clearTimeout(state.resend);
        for (const timer of state.timers) clearTimeout(timer);
        try {
          state.rtp?.close();
        } catch {
          // already closed after its BYE
        }
      }
      for (const connection of connections) connection.destroy();
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };
}

/** One message off the front of a TCP stream (CRLF keep-alives skipped), once all of it is there. */
function frame(data: Buffer): { message: Buffer | undefined; rest: Buffer } {
  let start = 0;
  while (data[start] === 0x0d || data[start] === 0x0a) start += 1;
  const end = data.indexOf('\r\n\r\n', start);
  if (end < 0) return { message: undefined, rest: data.subarray(start) };
  const head = data.subarray(start, end).toString('latin1');
  const length = Number(/^(?:content-length|l)\s*:\s*(\d+)/im.exec(head)?.[1] ?? 0);
  const size = end + 4 + length;
  if (data.length < size) return { message: undefined, rest: data.subarray(start) };
  return { message: data.subarray(start, size), rest: data.subarray(size) };
}

function listenRtp(host: string, call: SipTrunkCall): Promise<dgram.Socket> {
  return new Promise((resolve, reject) => {
    const rtp = dgram.createSocket('udp4');
    rtp.once('error', reject);
    rtp.on('message', (data) => {
      if (data.length < 12 || (data[0] as number) >> 6 !== 2) return;
      const csrcCount = (data[0] as number) & 0x0f;
      call.packets.push({
        marker: ((data[1] as number) & 0x80) !== 0,
        payloadType: (data[1] as number) & 0x7f,
        sequence: data.readUInt16BE(2),
        timestamp: data.readUInt32BE(4),
        ssrc: data.readUInt32BE(8),
        payload: data.subarray(12 + csrcCount * 4),
        receivedAt: performance.now(),
      });
    });
    rtp.bind(0, host, () => resolve(rtp));
  });
}

function parseRequest(data: Buffer): Request | undefined {
  const text = data.toString('utf8');
  const split = text.indexOf('\r\n\r\n');
  if (split < 0) return undefined;
  const [start = '', ...lines] = text.slice(0, split).split('\r\n');
  const match = /^([A-Z]+) (\S+) SIP\/2\.0$/.exec(start);
  if (!match) return undefined;
  const headers = new Map<string, string[]>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const raw = line.slice(0, colon).trim().toLowerCase();
    const name = COMPACT[raw] ?? raw;
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  return { method: match[1] as string, uri: match[2] as string, headers, body: text.slice(split + 4) };
}

function cseqNumber(request: Request): string {
  return first(request, 'cseq').split(' ')[0] ?? '';
}

function first(request: Request, name: string): string {
  return request.headers.get(name)?.[0] ?? '';
}

/** The user part of a SIP URI or name-addr. */
function userOf(value: string): string {
  return /sips?:([^@;>]+)@/.exec(value)?.[1] ?? '';
}

function digestParams(value: string): Record<string, string> | undefined {
  if (!/^Digest\s/i.test(value)) return undefined;
  const params: Record<string, string> = {};
  for (const m of value.slice(7).matchAll(/([a-z]+)\s*=\s*(?:"([^"]*)"|([^,\s]+))/gi)) {
    params[(m[1] as string).toLowerCase()] = m[2] ?? m[3] ?? '';
  }
  return params;
}

function md5(text: string): string {
  return createHash('md5').update(text).digest('hex');
}
