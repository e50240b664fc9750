import dgram from 'node:dgram';
import type { Logger } from '../../logger.ts';
import type { DeliveryReceipt, SubmitOutcome } from '../ports.ts';
import { SipDialog } from './sip-dialog.ts';
import {
  cseqOf,
  digestAnswer,
  header,
  newBranch,
  parseChallenge,
  type SipMessage,
  type SipTransport,
  tagOf,
  uriOf,
} from './sip-message.ts';
import { ClientTransaction } from './sip-transaction.ts';
import { type CodeAudio, sdpAnswerTarget, sdpOffer, streamAudio } from './voice-media.ts';

/** What a call needs of its trunk connection. */
export interface CallContext {
  trunk: { host: string; port: number };
  local: { address: string; port: number };
  /** Sends one message to the trunk (a datagram, or onto the TCP connection). */
  send: (message: Buffer) => void;
  transport: SipTransport;
  credentials: { username: string; password: string };
  logger: Logger;
  ringMs: number;
  t1Ms: number;
}

/** Final answers about the called number, after which the trunk has taken the call (its outcome is a receipt). */
const BUSY = [486, 600];
const NO_ANSWER = [408, 480, 487];
const REJECTED = [403, 404, 484];

type Phase = 'inviting' | 'cancelling' | 'answered' | 'ending' | 'done';

/**
 * One voice-code call, from INVITE to BYE (RFC 3261 §13-15). `start()` answers the submit: accepted
 * once the trunk shows it took the call (it rings, answers, or gives a final answer about the
 * number), refused for now when it fails or stays silent before that, so the message fails over
 * to the next carrier. A 401/407 challenge is answered once with an MD5 digest. Answered, the call
 * streams its audio as RTP to the address of the SDP answer, 160 bytes every 20 ms, then hangs up.
 * The outcome comes later as a receipt, about the Call-ID: DELIVRD played to the end (or hung up
 * by the listener after the code was read once), UNDELIV busy, NOANSWR not answered in `ringMs`
 * (the call is cancelled) or 480/408/487, REJECTD 403/404/484.
 */
export class SipCall {
  /** Settles when the call is over, whatever its outcome. */
  readonly finished: Promise<void>;

  private readonly context: CallContext;
  private readonly dialog: SipDialog;
  private readonly to: string;
  private readonly audio: CodeAudio;
  private readonly onReceipt: (receipt: DeliveryReceipt) => void;
  private phase: Phase = 'inviting';
  private cseq = 1;
  private inviteCseq = 1;
  private inviteBranch = newBranch();
  private authorization: [string, string] | undefined;
  private remoteTarget: string | undefined;
  private provisionalSeen = false;
  /** The submit has its answer: what happens next is the call's outcome, a receipt. */
  private submitAnswered = false;
  private reported = false;
  private answerSubmit: ((outcome: SubmitOutcome) => void) | undefined;
  private endCall: () => void = () => {};
  private inviteTx: ClientTransaction | undefined;
  private otherTx: ClientTransaction | undefined;
  private ringTimer: NodeJS.Timeout | undefined;
  private stopPlaying: () => void = () => {};
  private rtp: dgram.Socket | undefined;
  private played = 0;

  constructor(
    context: CallContext,
    call: { to: string; caller: string; audio: CodeAudio },
    onReceipt: (receipt: DeliveryReceipt) => void,
  ) {
    this.context = context;
    this.dialog = new SipDialog({
      ...call,
      trunk: context.trunk,
      local: context.local,
      transport: context.transport,
    });
    this.to = call.to;
    this.audio = call.audio;
    this.onReceipt = onReceipt;
    this.finished = new Promise((resolve) => {
      this.endCall = resolve;
    });
  }

  get callId(): string {
    return this.dialog.callId;
  }

  /** Places the call; answers once the trunk took it or refused it. */
  async start(): Promise<SubmitOutcome> {
    const answer = new Promise<SubmitOutcome>((resolve) => {
      this.answerSubmit = resolve;
    });
    try {
      this.rtp = await openRtpSocket(this.context.local.address);
    } catch (error) {
      this.refuse(false, `no RTP port: ${(error as Error).message}`);
      this.finish();
      return answer;
    }
    this.ringTimer = setTimeout(() => this.ringedOut(), this.context.ringMs);
    this.sendInvite();
    return answer;
  }

  /** A response or request of this call's dialog, from the trunk. */
  handle(message: SipMessage): void {
    if (message.method) {
      this.handleRequest(message);
      return;
    }
    const { method } = cseqOf(message);
    if (method === 'INVITE') this.inviteAnswered(message);
    else if (message.status >= 200) {
      this.otherTx?.stop();
      if (method === 'BYE') this.finish();
    } else this.otherTx?.provisional();
  }

  /**
   * Hangs up at once: the connection is closing (the operator changed the carrier, the worker
   * stops). A call in progress is reported cut off, so its message does not wait days for a receipt.
   */
  abort(): void {
    if (this.phase === 'answered')
      this.sendRequest('BYE', this.remoteTarget ?? this.dialog.requestUri, newBranch(), ++this.cseq);
    else if (this.phase === 'inviting' && this.provisionalSeen) this.sendCancel();
    this.refuse(false, 'the carrier connection closed');
    if (this.phase === 'cancelling') this.report('NOANSWR', 'cancelled');
    else this.report('UNDELIV', 'cut off: the carrier connection closed');
    this.finish();
  }

  private sendInvite(): void {
    const offer = sdpOffer(this.context.local.address, (this.rtp as dgram.Socket).address().port);
    const request = this.dialog.request(
      'INVITE',
      this.dialog.requestUri,
      this.inviteBranch,
      this.inviteCseq,
      [
        ['Contact', this.dialog.contact],
        ...(this.authorization ? [this.authorization] : []),
        ['Content-Type', 'application/sdp'],
      ],
      offer,
    );
    this.inviteTx?.stop();
    this.inviteTx = new ClientTransaction(() => this.context.send(request), {
      invite: true,
      reliable: this.context.transport === 'TCP',
      t1: this.context.t1Ms,
      onTimeout: () => this.noResponse(),
    });
    this.inviteTx.start();
  }

  private inviteAnswered(message: SipMessage): void {
    if (cseqOf(message).number !== this.inviteCseq) return;
    const { status } = message;
    if (status < 200) {
      this.inviteTx?.provisional();
      this.provisionalSeen = true;
      if (status > 100 && this.phase === 'inviting') this.accept();
      return;
    }
    this.inviteTx?.stop();
    if (status < 300) {
      this.answered(message);
      return;
    }
    this.context.send(this.dialog.ackOfFailure(message, this.inviteBranch, this.inviteCseq));
    if (this.phase === 'done' || this.phase === 'answered' || this.phase === 'ending') return;
    if ((status === 401 || status === 407) && !this.authorization && this.phase === 'inviting') {
      this.authenticate(message);
      return;
    }
    clearTimeout(this.ringTimer);
    const words = `SIP ${status}`;
    const aboutTheNumber = [...BUSY, ...NO_ANSWER, ...REJECTED].includes(status);
    if (aboutTheNumber) this.accept();
    if (this.phase === 'cancelling') this.report('NOANSWR', words);
    else if (BUSY.includes(status)) this.report('UNDELIV', words);
    else if (NO_ANSWER.includes(status)) this.report('NOANSWR', words);
    else if (REJECTED.includes(status)) this.report('REJECTD', words);
    else if (this.submitAnswered) this.report('UNDELIV', words);
    else {
      // Before the trunk took the call: a trunk in trouble (5xx, credentials refused) may pass, the
      // next carrier may take it; a request it cannot take at all (3xx, 4xx, 6xx) never will.
      const passing = status >= 500 || status === 401 || status === 407;
      this.refuse(!passing, `${words} ${message.reason}`.trim());
    }
    this.finish();
  }

  private answered(message: SipMessage): void {
    this.dialog.remoteTag ??= tagOf(header(message, 'to'));
    const contact = header(message, 'contact');
    this.remoteTarget ??= contact ? uriOf(contact) : this.dialog.requestUri;
    this.sendRequest('ACK', this.remoteTarget, newBranch(), this.inviteCseq);
    if (this.phase === 'cancelling') {
      // The number answered as the call was given up: it is over all the same.
      this.report('NOANSWR', 'answered after the ring time');
      this.hangUp();
      return;
    }
    if (this.phase !== 'inviting') return; // a retransmitted 200: the ACK above is all it needs
    clearTimeout(this.ringTimer);
    this.accept();
    this.phase = 'answered';
    const target = sdpAnswerTarget(message.body);
    if ('problem' in target) {
      this.report('UNDELIV', `SDP: ${target.problem}`);
      this.hangUp();
      return;
    }
    this.play(target);
  }

  private play(target: { address: string; port: number }): void {
    if (!this.rtp) return;
    this.stopPlaying = streamAudio(this.rtp, target, this.audio.audio, {
      sent: (bytes) => {
        this.played = bytes;
      },
      done: () => {
        this.report('DELIVRD', undefined);
        this.hangUp();
      },
    });
  }

  private hangUp(): void {
    this.stopPlaying();
    this.otherTx?.stop();
    this.phase = 'ending';
    const cseq = ++this.cseq;
    const branch = newBranch();
    this.otherTx = new ClientTransaction(
      () => this.sendRequest('BYE', this.remoteTarget ?? this.dialog.requestUri, branch, cseq),
      {
        invite: false,
        reliable: this.context.transport === 'TCP',
        t1: this.context.t1Ms,
        onTimeout: () => this.finish(),
      },
    );
    this.otherTx.start();
  }

  /**
   * What the trunk asks inside the call: BYE ends it, OPTIONS is answered; a call that only
   * reads out a code takes nothing else (a re-INVITE, INFO, REFER), which RFC 3261 §8.2.1 says
   * to answer 501.
   */
  private handleRequest(message: SipMessage): void {
    const reply = (status: number, reason: string) =>
      this.context.send(this.dialog.response(message, status, reason));
    if (message.method === 'BYE') {
      reply(200, 'OK');
      this.hungUpByListener();
    } else if (message.method === 'OPTIONS') reply(200, 'OK');
    else reply(501, 'Not Implemented');
  }

  /** The listener hung up: the code reached them if it was read out once. */
  private hungUpByListener(): void {
    if (this.phase !== 'answered') return;
    this.stopPlaying();
    if (this.played >= this.audio.firstReadingEnd) this.report('DELIVRD', undefined);
    else this.report('UNDELIV', 'hung up');
    this.finish();
  }

  private authenticate(challenge: SipMessage): void {
    const proxy = challenge.status === 407;
    const params = parseChallenge(header(challenge, proxy ? 'proxy-authenticate' : 'www-authenticate') ?? '');
    const answer =
      params &&
      digestAnswer(params, { ...this.context.credentials, method: 'INVITE', uri: this.dialog.requestUri });
    if (!answer) {
      this.refuse(false, `SIP ${challenge.status}: a challenge other than MD5 digest`);
      this.finish();
      return;
    }
    this.authorization = [proxy ? 'Proxy-Authorization' : 'Authorization', answer];
    this.inviteCseq = ++this.cseq;
    this.inviteBranch = newBranch();
    this.sendInvite();
  }

  /** The number did not answer in time: cancel the call if the trunk took it, else give up on it. */
  private ringedOut(): void {
    if (this.phase !== 'inviting') return;
    if (!this.provisionalSeen) {
      this.noResponse();
      return;
    }
    this.phase = 'cancelling';
    this.sendCancel();
    if (!this.submitAnswered) this.refuse(false, 'the trunk did not ring the number');
  }

  private sendCancel(): void {
    this.otherTx?.stop();
    this.otherTx = new ClientTransaction(
      () => this.sendRequest('CANCEL', this.dialog.requestUri, this.inviteBranch, this.inviteCseq),
      {
        invite: false,
        reliable: this.context.transport === 'TCP',
        t1: this.context.t1Ms,
        onTimeout: () => {
          this.report('NOANSWR', 'cancelled');
          this.finish();
        },
      },
    );
    this.otherTx.start();
  }

  private noResponse(): void {
    this.inviteTx?.stop();
    if (this.submitAnswered) this.report('NOANSWR', 'no final answer');
    else this.refuse(false, 'the trunk did not answer the INVITE');
    this.finish();
  }

  private sendRequest(method: string, uri: string, branch: string, cseq: number): void {
    this.context.send(this.dialog.request(method, uri, branch, cseq));
  }

  private accept(): void {
    if (this.submitAnswered) return;
    this.submitAnswered = true;
    this.answerSubmit?.({ kind: 'accepted', messageIds: [this.callId] });
  }

  private refuse(permanent: boolean, reason: string): void {
    if (this.submitAnswered) return;
    this.submitAnswered = true;
    this.reported = true; // a refused call has no outcome to report
    this.answerSubmit?.({ kind: 'refused', permanent, reason });
  }

  /** The call's one receipt, after the submit's answer has been taken up. */
  private report(stat: string, err: string | undefined): void {
    if (this.reported) return;
    this.reported = true;
    const receipt = { messageId: this.callId, stat, err, delivered: stat === 'DELIVRD', final: true };
    this.context.logger.debug({ callId: this.callId, to: this.to, stat, err }, 'voice call ended');
    setImmediate(() => this.onReceipt(receipt));
  }

  private finish(): void {
    if (this.phase === 'done') return;
    this.phase = 'done';
    clearTimeout(this.ringTimer);
    this.stopPlaying();
    this.inviteTx?.stop();
    this.otherTx?.stop();
    this.rtp?.close();
    this.rtp = undefined;
    this.endCall();
  }
}

function openRtpSocket(address: string): Promise<dgram.Socket> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket('udp4');
    socket.once('error', reject);
    // Whatever arrives (the trunk's own RTP, RTCP) is not needed to read a code out.
    socket.on('message', () => {});
    socket.bind(0, address, () => {
      socket.off('error', reject);
      socket.on('error', () => {});
      resolve(socket);
    });
  });
}
