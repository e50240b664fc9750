/**
 * A China Mobile SMS gateway (ISMG) on loopback speaking CMPP 2.0 or 3.0, so Herald's real CMPP
 * client logs in, submits, and gets status reports and handset replies exactly as from a carrier.
 * It checks CONNECT's MD5 authenticator against its accounts and closes the connection on a
 * refusal, answers ACTIVE_TEST and TERMINATE, gives every accepted part its own Msg_Id (the spec's
 * time + gateway + sequence layout), and sends the status report as a DELIVER with
 * Registered_Delivery = 1, expecting a DELIVER_RESP. Reports go to the submitting connection when
 * it is still logged in, else to another of the same SP id, else wait until one logs in, so
 * reconnect tests get their reports; with `reportsOn: 'another'` they go to another logged-in
 * connection of the SP when there is one, as gateways that spread reports over an SP's
 * connections do. An SP may log in on several connections at once, up to `maxConnections` (a
 * further CONNECT is refused with status 5, as gateways that count connections answer); every
 * connection gets a number, which `messages`, `reports` and `drop(n)` use. Flow control (result
 * 8) comes on demand (`flowControl(n)`) or whenever more than `windowLimit` submits await their
 * answer (answers can be held back with `responseDelayMs` to make that happen). `messages` holds
 * accepted submits only.
 */
import net from 'node:net';
import {
  CMD,
  type CmppVersion,
  connectResp,
  decodeContent,
  deliverBody,
  encodeUcs2,
  expectedAuthenticator,
  makeMsgId,
  msgIdResp,
  packet,
  packetReader,
  parseConnect,
  parseMsgIdResp,
  parseSubmit,
  reportContent,
  type SubmitPdu,
} from './cmpp-wire.ts';
import type { Udh } from './smpp-text.ts';
import { createWaiter } from './waiter.ts';

/** What the gateway does for one destination. Fields combine. */
export interface CmppBehaviour {
  /** Answer SUBMIT with this Result, e.g. 13 (Dest_terminal_Id error) or 8 (flow control). */
  reject?: number;
  /** Stat of the status report: DELIVRD (default), UNDELIV, EXPIRED, REJECTD, or a code such as MK:0001. */
  receipt?: string;
  receiptDelayMs?: number;
  /** Never send a status report. */
  noReceipt?: boolean;
}

export interface CmppGatewayOptions {
  version: CmppVersion;
  host?: string;
  port?: number;
  /** SP id → shared secret. When absent, any SP id logs in without an authenticator check. */
  accounts?: Record<string, string>;
  /** Delay between SUBMIT_RESP and the status report. Default 50 ms. */
  receiptDelayMs?: number;
  /** Result 8 for a SUBMIT arriving while this many are still unanswered. */
  windowLimit?: number;
  /** Hold every SUBMIT_RESP back this long. Default 0 (answered at once). */
  responseDelayMs?: number;
  /** Connections one SP id may have logged in at once; a further CONNECT gets status 5. */
  maxConnections?: number;
  /** Where status reports go: the submitting connection (default) or another of the same SP. */
  reportsOn?: 'submitter' | 'another';
}

/** A status report sent: the Msg_Id it reports on and the connection it went on. */
export interface CmppReportSent {
  msgId: string;
  connection: number;
}

export interface CmppSubmitted {
  spId: string;
  version: CmppVersion;
  /** The Msg_Id given in SUBMIT_RESP, as 16 lowercase hex digits. */
  msgId: string;
  srcId: string;
  serviceId: string;
  msgSrc: string;
  destination: string;
  destinations: string[];
  msgFmt: number;
  tpUdhi: number;
  pkTotal: number;
  pkNumber: number;
  /** Concatenation info when TP_udhi is set. */
  udh: Udh | undefined;
  /** Decoded text without the UDH. */
  text: string;
  registeredDelivery: number;
  receivedAt: Date;
  /** The number of the connection the SUBMIT came on. */
  connection: number;
}

export interface CmppLoginAttempt {
  spId: string;
  version: number;
  status: number;
  connection: number;
}

export interface CmppGateway {
  readonly host: string;
  readonly port: number;
  readonly version: CmppVersion;
  /** Accepted submits, oldest first; the same array for the life of the peer. */
  readonly messages: CmppSubmitted[];
  /** Every CONNECT with the Status it was answered with. */
  readonly logins: CmppLoginAttempt[];
  /** Connections currently logged in. */
  readonly sessions: number;
  /** The numbers of the connections currently logged in, oldest first. */
  readonly loggedIn: number[];
  /** Status reports sent, oldest first. */
  readonly reports: CmppReportSent[];
  /** SUBMITs answered with result 8. */
  readonly flowControlled: number;
  /** Most SUBMITs that awaited their answer at once. */
  readonly maxOutstanding: number;
  /** ACTIVE_TESTs received from clients. */
  readonly activeTests: number;
  /** DELIVERs sent and not yet answered with DELIVER_RESP. */
  readonly unansweredDelivers: number;
  script(destination: string, behaviour: CmppBehaviour): void;
  scriptDefault(behaviour: CmppBehaviour | null): void;
  unscript(destination: string): void;
  /** Result 8 for the next `count` SUBMITs, whatever their destination. */
  flowControl(count: number): void;
  /** Stop (true) or resume (false) answering the clients' ACTIVE_TESTs, as a hung gateway would. */
  ignoreActiveTests(ignore: boolean): void;
  waitForMessages(count: number, timeoutMs?: number): Promise<CmppSubmitted[]>;
  /**
   * A handset's reply: DELIVER(s) with Registered_Delivery = 0 from `from` to `to` (the service
   * code and extension), as UCS-2 unless plain ASCII, in parts with a UDH when long. Resolves
   * with the DELIVER_RESP Results.
   */
  sendMo(from: string, to: string, text: string, timeoutMs?: number): Promise<number[]>;
  /** ACTIVE_TEST to every logged-in connection; resolves with how many answered in time. */
  activeTest(timeoutMs?: number): Promise<number>;
  /** TERMINATE to every logged-in connection (they answer and the gateway closes them). */
  terminateAll(): void;
  /** Destroys every connection at once, as an outage would. */
  dropAll(): void;
  /** Destroys one connection, by its number. */
  drop(connection: number): void;
  /** Forgets messages, scripts, flow control and reports not yet delivered. */
  clear(): void;
  close(): Promise<void>;
}

interface Session {
  id: number;
  socket: net.Socket;
  spId: string | undefined;
  version: CmppVersion;
  sequence: number;
  waiting: Map<number, (body: Buffer) => void>;
  /** DELIVERs sent on this connection and not yet answered. */
  unansweredDelivers: number;
}

/** A status report not yet sent: built in the version of the connection that takes it. */
interface QueuedReport {
  msgId: string;
  build: (version: CmppVersion) => Buffer;
}

const normalizeNumber = (n: string): string => n.trim().replace(/^\+/, '');
const GATEWAY_CODE = 1001;

function parseUdh(content: Buffer, tpUdhi: number): { udh: Udh | undefined; body: Buffer } {
  if (!(tpUdhi & 0x41) || content.length === 0) return { udh: undefined, body: content };
  const length = content[0] ?? 0;
  const header = content.subarray(1, 1 + length);
  const body = content.subarray(1 + length);
  if (header[0] === 0x00 && header[1] === 3)
    return { udh: { ref: header[2]!, total: header[3]!, seq: header[4]! }, body };
  if (header[0] === 0x08 && header[1] === 4)
    return { udh: { ref: header.readUInt16BE(2), total: header[4]!, seq: header[5]! }, body };
  return { udh: undefined, body };
}

export async function startCmppGateway(options: CmppGatewayOptions): Promise<CmppGateway> {
  const host = options.host ?? '127.0.0.1';
  const gatewayVersion = options.version;
  const messages: CmppSubmitted[] = [];
  const logins: CmppLoginAttempt[] = [];
  const scripts = new Map<string, CmppBehaviour>();
  let fallback: CmppBehaviour | null = null;
  const sessions = new Set<Session>();
  const connections = new Set<Session>();
  const queuedReports = new Map<string, QueuedReport[]>();
  const reports: CmppReportSent[] = [];
  let connectionCount = 0;
  const timers = new Set<NodeJS.Timeout>();
  const waiter = createWaiter(() => messages, 'cmpp-gateway');
  let msgSequence = 0;
  let forcedFlowControl = 0;
  let flowControlled = 0;
  let outstanding = 0;
  let maxOutstanding = 0;
  let activeTests = 0;
  let silent = false;

  const later = (ms: number, run: () => void): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };
  const nextMsgId = (): Buffer => {
    msgSequence = (msgSequence + 1) & 0xffff;
    return makeMsgId(new Date(), GATEWAY_CODE, msgSequence);
  };
  const write = (session: Session, command: number, sequence: number, body?: Buffer): boolean => {
    if (!session.socket.writable) return false;
    session.socket.write(packet(command, sequence, body));
    return true;
  };
  /** A request of the gateway's own; `onAnswer` gets the response body. */
  const request = (session: Session, command: number, body?: Buffer, onAnswer?: (body: Buffer) => void) => {
    session.sequence = session.sequence >= 0x7fffffff ? 1 : session.sequence + 1;
    if (onAnswer) session.waiting.set(session.sequence, onAnswer);
    return write(session, command, session.sequence, body);
  };
  const loggedIn = (session: Session, spId: string) =>
    sessions.has(session) && session.spId === spId && session.socket.writable;

  /** Sends a DELIVER; its DELIVER_RESP settles `onAnswer`. */
  const deliver = (session: Session, body: Buffer, onAnswer?: (result: number) => void): boolean => {
    const sent = request(session, CMD.DELIVER, body, (resp) => {
      session.unansweredDelivers -= 1;
      onAnswer?.(parseMsgIdResp(session.version, resp).result);
    });
    if (sent) session.unansweredDelivers += 1;
    return sent;
  };

  const reportTarget = (spId: string, submitter: Session): Session | undefined => {
    const others = [...sessions].filter((s) => s !== submitter && loggedIn(s, spId));
    const another = others[msgSequence % Math.max(others.length, 1)];
    if (options.reportsOn === 'another' && another) return another;
    return loggedIn(submitter, spId) ? submitter : others[0];
  };
  const deliverReport = (session: Session, report: QueuedReport): boolean => {
    if (!deliver(session, report.build(session.version))) return false;
    reports.push({ msgId: report.msgId, connection: session.id });
    return true;
  };
  const sendReport = (spId: string, submitter: Session, report: QueuedReport): void => {
    const target = reportTarget(spId, submitter);
    if (target && deliverReport(target, report)) return;
    queuedReports.set(spId, [...(queuedReports.get(spId) ?? []), report]);
  };

  const scheduleReport = (
    session: Session,
    sms: CmppSubmitted,
    msgId: Buffer,
    behaviour: CmppBehaviour | null,
  ) => {
    if (behaviour?.noReceipt || sms.registeredDelivery !== 1) return;
    const delay = behaviour?.receiptDelayMs ?? options.receiptDelayMs ?? 50;
    later(delay, () => {
      const stat = behaviour?.receipt ?? 'DELIVRD';
      sendReport(sms.spId, session, {
        msgId: sms.msgId,
        build: (version) =>
          deliverBody(version, {
            msgId: nextMsgId(),
            destId: sms.srcId,
            serviceId: sms.serviceId,
            tpUdhi: 0,
            msgFmt: 0,
            srcTerminalId: sms.destination,
            registeredDelivery: 1,
            content: reportContent(version, {
              msgId,
              stat,
              submitted: sms.receivedAt,
              done: new Date(),
              destination: sms.destination,
              smscSequence: msgSequence,
            }),
          }),
      });
    });
  };

  const onConnect = (session: Session, sequence: number, body: Buffer): void => {
    const login = parseConnect(body);
    // A client of an older version is served in its version; a newer one is refused (status 4).
    const clientMajor = login.version >> 4;
    const version: CmppVersion = clientMajor >= 3 ? '3.0' : '2.0';
    const secret = options.accounts?.[login.sourceAddr];
    const already = [...sessions].filter((s) => s.spId === login.sourceAddr).length;
    let status = 0;
    if (clientMajor > Number(gatewayVersion[0])) status = 4;
    else if (options.maxConnections !== undefined && already >= options.maxConnections) status = 5;
    else if (options.accounts && secret === undefined) status = 2;
    else if (
      secret !== undefined &&
      !expectedAuthenticator(login.sourceAddr, secret, login.timestamp).equals(login.authenticator)
    )
      status = 3;
    const answerVersion = status === 4 ? gatewayVersion : version;
    logins.push({ spId: login.sourceAddr, version: login.version, status, connection: session.id });
    const versionByte = gatewayVersion === '3.0' ? 0x30 : 0x20;
    write(
      session,
      CMD.CONNECT_RESP,
      sequence,
      connectResp(answerVersion, status, login.authenticator, secret, versionByte),
    );
    if (status !== 0) {
      session.socket.end();
      return;
    }
    session.spId = login.sourceAddr;
    session.version = version;
    sessions.add(session);
    const queued = queuedReports.get(session.spId);
    if (queued) {
      queuedReports.delete(session.spId);
      for (const report of queued) deliverReport(session, report);
    }
  };

  const onSubmit = (session: Session, sequence: number, body: Buffer): void => {
    const answer = (msgId: Buffer, result: number) =>
      write(session, CMD.SUBMIT_RESP, sequence, msgIdResp(session.version, msgId, result));
    let pdu: SubmitPdu;
    try {
      pdu = parseSubmit(session.version, body);
    } catch {
      answer(Buffer.alloc(8), 1);
      return;
    }
    const flowControl = () => {
      flowControlled += 1;
      answer(Buffer.alloc(8), 8);
    };
    if (options.windowLimit !== undefined && outstanding >= options.windowLimit) return void flowControl();
    if (forcedFlowControl > 0) {
      forcedFlowControl -= 1;
      return void flowControl();
    }
    const destination = normalizeNumber(pdu.destinations[0] ?? '');
    const behaviour = scripts.get(destination) ?? fallback;
    if (behaviour?.reject) return void answer(Buffer.alloc(8), behaviour.reject);
    const msgId = nextMsgId();
    const { udh, body: text } = parseUdh(pdu.content, pdu.tpUdhi);
    const sms: CmppSubmitted = {
      spId: session.spId ?? '',
      version: session.version,
      msgId: msgId.toString('hex'),
      srcId: pdu.srcId,
      serviceId: pdu.serviceId,
      msgSrc: pdu.msgSrc,
      destination: pdu.destinations[0] ?? '',
      destinations: pdu.destinations,
      msgFmt: pdu.msgFmt,
      tpUdhi: pdu.tpUdhi,
      pkTotal: pdu.pkTotal,
      pkNumber: pdu.pkNumber,
      udh,
      text: decodeContent(text, pdu.msgFmt),
      registeredDelivery: pdu.registeredDelivery,
      receivedAt: new Date(),
      connection: session.id,
    };
    const accept = () => {
      messages.push(sms);
      answer(msgId, 0);
      waiter.notify();
      scheduleReport(session, sms, msgId, behaviour);
    };
    const delay = options.responseDelayMs ?? 0;
    if (delay <= 0) return void accept();
    outstanding += 1;
    maxOutstanding = Math.max(maxOutstanding, outstanding);
    later(delay, () => {
      outstanding -= 1;
      accept();
    });
  };

  const onPacket = (session: Session, command: number, sequence: number, body: Buffer): void => {
    if (command & 0x80000000) {
      const onAnswer = session.waiting.get(sequence);
      session.waiting.delete(sequence);
      onAnswer?.(body);
      return;
    }
    if (command === CMD.CONNECT) return void onConnect(session, sequence, body);
    // Anything but CONNECT before a successful login ends the connection.
    if (!sessions.has(session)) return void session.socket.destroy();
    if (command === CMD.SUBMIT) return void onSubmit(session, sequence, body);
    if (command === CMD.ACTIVE_TEST) {
      activeTests += 1;
      if (!silent) write(session, CMD.ACTIVE_TEST_RESP, sequence, Buffer.from([0]));
      return;
    }
    if (command === CMD.TERMINATE) {
      sessions.delete(session);
      write(session, CMD.TERMINATE_RESP, sequence);
      session.socket.end();
      return;
    }
    session.socket.destroy();
  };

  const server = net.createServer((socket) => {
    connectionCount += 1;
    const session: Session = {
      id: connectionCount,
      socket,
      spId: undefined,
      version: gatewayVersion,
      sequence: 0,
      waiting: new Map(),
      unansweredDelivers: 0,
    };
    connections.add(session);
    const read = packetReader();
    socket.on('data', (chunk: Buffer) => {
      const packets = read(chunk);
      if (!packets) return void socket.destroy();
      for (const p of packets) onPacket(session, p.command, p.sequence, p.body);
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      connections.delete(session);
      sessions.delete(session);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  const sendMo = async (from: string, to: string, text: string, timeoutMs = 5000): Promise<number[]> => {
    const session = [...sessions].find((s) => s.socket.writable);
    if (!session) throw new Error('cmpp-gateway: no logged-in connection to deliver the reply to');
    const ascii = /^\p{ASCII}*$/u.test(text);
    const encode = (s: string) => (ascii ? Buffer.from(s, 'latin1') : encodeUcs2(s));
    const [single, part] = ascii ? [159, 153] : [70, 67];
    const pieces: string[] = [];
    if (text.length <= single) pieces.push(text);
    else for (let i = 0; i < text.length; i += part) pieces.push(text.slice(i, i + part));
    const ref = msgSequence & 0xff;
    const answers = pieces.map((piece, index) => {
      const udh = pieces.length > 1 ? Buffer.from([5, 0, 3, ref, pieces.length, index + 1]) : Buffer.alloc(0);
      const body = deliverBody(session.version, {
        msgId: nextMsgId(),
        destId: to,
        serviceId: '',
        tpUdhi: pieces.length > 1 ? 1 : 0,
        msgFmt: ascii ? 0 : 8,
        srcTerminalId: normalizeNumber(from),
        registeredDelivery: 0,
        content: Buffer.concat([udh, encode(piece)]),
      });
      return new Promise<number>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`cmpp-gateway: no DELIVER_RESP within ${timeoutMs}ms`)),
          timeoutMs,
        );
        deliver(session, body, (result) => {
          clearTimeout(timer);
          resolve(result);
        });
      });
    });
    return Promise.all(answers);
  };

  const activeTest = (timeoutMs = 1000): Promise<number> => {
    const targets = [...sessions];
    return Promise.all(
      targets.map(
        (session) =>
          new Promise<number>((resolve) => {
            const timer = setTimeout(() => resolve(0), timeoutMs);
            const sent = request(session, CMD.ACTIVE_TEST, undefined, () => {
              clearTimeout(timer);
              resolve(1);
            });
            if (!sent) {
              clearTimeout(timer);
              resolve(0);
            }
          }),
      ),
    ).then((answers) => answers.reduce((a, b) => a + b, 0));
  };

  let closing: Promise<void> | undefined;
  return {
    host,
    port,
    version: gatewayVersion,
    messages,
    logins,
    get sessions() {
      return sessions.size;
    },
    get loggedIn() {
      return [...sessions].map((s) => s.id);
    },
    reports,
    get flowControlled() {
      return flowControlled;
    },
    get maxOutstanding() {
      return maxOutstanding;
    },
    get activeTests() {
      return activeTests;
    },
    get unansweredDelivers() {
      return [...connections].reduce((sum, s) => sum + s.unansweredDelivers, 0);
    },
    script(destination, behaviour) {
      scripts.set(normalizeNumber(destination), behaviour);
    },
    scriptDefault(behaviour) {
      fallback = behaviour;
    },
    unscript(destination) {
      scripts.delete(normalizeNumber(destination));
    },
    flowControl(count) {
      forcedFlowControl = count;
    },
    ignoreActiveTests(ignore) {
      silent = ignore;
    },
    waitForMessages(count, timeoutMs = 5000) {
      return waiter.waitFor(count, timeoutMs);
    },
    sendMo,
    activeTest,
    terminateAll() {
      for (const session of sessions) {
        request(session, CMD.TERMINATE, undefined, () => session.socket.end());
      }
    },
    dropAll() {
      for (const { socket } of connections) socket.destroy();
    },
    drop(connection) {
      for (const session of connections) if (session.id === connection) session.socket.destroy();
    },
    clear() {
      messages.length = 0;
      logins.length = 0;
      scripts.clear();
      fallback = null;
      forcedFlowControl = 0;
      flowControlled = 0;
      maxOutstanding = 0;
      activeTests = 0;
      silent = false;
      queuedReports.clear();
      reports.length = 0;
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        waiter.cancelAll('peer closed');
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        for (const { socket } of connections) socket.destroy();
      });
      return closing;
    },
  };
}
