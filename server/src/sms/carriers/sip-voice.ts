import dgram from 'node:dgram';
import net from 'node:net';
import type { Logger } from '../../logger.ts';
import type { ReceiptListener, SmsCarrier, SmsSubmission, SubmitOutcome } from '../ports.ts';
import { SipCall } from './sip-call.ts';
import {
  formatResponse,
  header,
  headerValues,
  parseSip,
  type SipMessage,
  SipStream,
  type SipTransport,
} from './sip-message.ts';
import { SIP_T1_MS } from './sip-transaction.ts';
import { SubmitWindow } from './submit-window.ts';
import { codeAudio } from './voice-media.ts';

export interface SipVoiceOptions {
  /** sip://host:port (5060 when absent). */
  url: string;
  /** UDP (the default) or TCP (RFC 3261 §18: every SIP element speaks both). */
  transport?: SipTransport;
  /** SIP digest credentials (the carrier's systemId and password). */
  username: string;
  password: string;
  /** The calling number the trunk shows; the submit's sender when absent. */
  caller?: string | undefined;
  logger: Logger;
  onReceipt: ReceiptListener;
  /** Calls at once (default 10). */
  windowSize?: number | undefined;
  /** Calls started per second; unlimited when absent. */
  callsPerSecond?: number | undefined;
  /** How long a call may ring before it is cancelled as unanswered (default 45 s). */
  ringMs?: number | undefined;
  t1Ms?: number;
}

const SIP_PORT = 5060;

/** The signalling path to the trunk that every call shares. */
interface TrunkLink {
  send(message: Buffer): void;
  local: { address: string; port: number };
  close(): void;
}

/**
 * Voice verification codes over a SIP trunk (RFC 3261 over UDP or TCP): each submit is a phone
 * call that reads the code out (sip-call.ts). One UDP socket connected to the trunk, or one TCP
 * connection to it, carries every call's signalling, opened on the first call (a TCP connection
 * the trunk closes is opened again by the next call); each call has its own RTP socket. A call
 * holds its place in the window from INVITE to BYE, so `window` bounds the calls in progress, not
 * just the ones being placed. The trunk is reached as configured (no DNS SRV, no Record-Route):
 * what a carrier's dedicated trunk expects.
 */
export class SipVoiceConnector implements SmsCarrier {
  private readonly options: SipVoiceOptions;
  private readonly trunk: { host: string; port: number };
  private readonly window: SubmitWindow;
  private readonly calls = new Map<string, SipCall>();
  private link: Promise<TrunkLink> | undefined;
  private closed = false;

  constructor(options: SipVoiceOptions) {
    this.options = options;
    const url = new URL(options.url);
    this.trunk = { host: url.hostname, port: Number(url.port) || SIP_PORT };
    this.window = new SubmitWindow({ size: options.windowSize ?? 10, perSecond: options.callsPerSecond });
  }

  async submit(sms: SmsSubmission, signal?: AbortSignal): Promise<SubmitOutcome> {
    if (!sms.voice) {
      return {
        kind: 'refused',
        permanent: true,
        reason: 'a SIP trunk only places voice-code calls; no code to read out',
      };
    }
    let audio: ReturnType<typeof codeAudio>;
    try {
      audio = codeAudio(sms.voice.code, sms.voice.language);
    } catch (error) {
      return { kind: 'refused', permanent: true, reason: (error as Error).message };
    }
    if (!(await this.window.acquire(signal, sms.bulk))) {
      return {
        kind: 'refused',
        permanent: false,
        reason: this.closed ? 'the carrier connection closed' : 'aborted',
      };
    }
    let link: TrunkLink;
    try {
      link = await this.open();
    } catch (error) {
      this.window.release();
      return {
        kind: 'refused',
        permanent: false,
        reason: `SIP trunk unreachable: ${(error as Error).message}`,
      };
    }
    const call = new SipCall(
      {
        trunk: this.trunk,
        local: link.local,
        send: (message) => link.send(message),
        transport: this.options.transport ?? 'UDP',
        credentials: { username: this.options.username, password: this.options.password },
        logger: this.options.logger,
        ringMs: this.options.ringMs ?? 45_000,
        t1Ms: this.options.t1Ms ?? SIP_T1_MS,
      },
      {
        to: sms.to,
        caller: this.options.caller || sms.from || this.options.username,
        audio,
      },
      this.options.onReceipt,
    );
    this.calls.set(call.callId, call);
    void call.finished.then(() => {
      this.calls.delete(call.callId);
      this.window.release();
    });
    return call.start();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.window.close();
    for (const call of this.calls.values()) call.abort();
    const open = await this.link?.catch(() => undefined);
    this.link = undefined;
    // Let the last BYEs leave before the link goes.
    if (open) await new Promise<void>((resolve) => setTimeout(() => resolve(open.close()), 50));
  }

  private open(): Promise<TrunkLink> {
    if (!this.link) {
      // A failed opening, or a TCP connection that closes, is opened again by the next call.
      const forget = () => {
        if (this.link === opening) this.link = undefined;
      };
      const opening = this.options.transport === 'TCP' ? this.openTcp(forget) : this.openUdp();
      this.link = opening;
      opening.catch(forget);
    }
    return this.link;
  }

  private openUdp(): Promise<TrunkLink> {
    return new Promise((resolve, reject) => {
      const socket = dgram.createSocket('udp4');
      socket.once('error', reject);
      const link: TrunkLink = {
        send: (message) => socket.send(message),
        local: { address: '', port: 0 },
        close: () => socket.close(),
      };
      socket.on('message', (data) => this.received(link, data));
      socket.connect(this.trunk.port, this.trunk.host, () => {
        socket.off('error', reject);
        socket.on('error', (error) => this.options.logger.warn({ err: error.message }, 'SIP socket error'));
        const { address, port } = socket.address();
        link.local = { address, port };
        resolve(link);
      });
    });
  }

  private openTcp(onClose: () => void): Promise<TrunkLink> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: this.trunk.host, port: this.trunk.port });
      socket.setNoDelay(true);
      socket.once('error', reject);
      const stream = new SipStream();
      const link: TrunkLink = {
        send: (message) => void socket.write(message),
        local: { address: '', port: 0 },
        close: () => socket.end(),
      };
      socket.on('data', (chunk) => {
        let messages: Buffer[];
        try {
          messages = stream.push(chunk);
        } catch (error) {
          this.options.logger.warn(
            { err: (error as Error).message },
            'SIP over TCP: the trunk sent what cannot be read',
          );
          socket.destroy();
          return;
        }
        for (const message of messages) this.received(link, message);
      });
      // Calls in progress on a closed connection end by their transactions' timers.
      socket.on('close', onClose);
      socket.once('connect', () => {
        socket.off('error', reject);
        socket.on('error', (error) =>
          this.options.logger.warn({ err: error.message }, 'SIP connection error'),
        );
        link.local = { address: socket.localAddress ?? '', port: socket.localPort ?? 0 };
        resolve(link);
      });
    });
  }

  private received(link: TrunkLink, data: Buffer): void {
    const message = parseSip(data);
    if (!message) return;
    const call = this.calls.get(header(message, 'call-id') ?? '');
    if (call) call.handle(message);
    else if (message.method && message.method !== 'ACK') link.send(outOfDialog(message));
  }
}

/** A request about no call of ours: a keep-alive OPTIONS is answered, anything else has no dialog. */
function outOfDialog(request: SipMessage): Buffer {
  const options = request.method === 'OPTIONS';
  return formatResponse(options ? 200 : 481, options ? 'OK' : 'Call/Transaction Does Not Exist', [
    ...headerValues(request, 'via').map((v): [string, string] => ['Via', v]),
    ['From', header(request, 'from') ?? ''],
    ['To', header(request, 'to') ?? ''],
    ['Call-ID', header(request, 'call-id') ?? ''],
    ['CSeq', header(request, 'cseq') ?? ''],
  ]);
}
