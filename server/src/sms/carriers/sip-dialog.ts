import {
  formatRequest,
  formatResponse,
  header,
  headerValues,
  type SipMessage,
  type SipTransport,
  sipToken,
} from './sip-message.ts';

/**
 * The identity of one call's dialog and the messages it writes (RFC 3261 §8.1.1, §12): its
 * Call-ID, our From tag, the trunk's To tag once it answers, and the Via each request leaves by.
 */
export class SipDialog {
  readonly callId: string;
  /** The INVITE's Request-URI, which the To header also names. */
  readonly requestUri: string;
  /** Where the trunk sends this call's requests back: the INVITE's Contact. */
  readonly contact: string;
  /** The trunk's tag, from its first answer with one. */
  remoteTag: string | undefined;

  private readonly fromTag = sipToken(6);
  private readonly local: { address: string; port: number };
  private readonly transport: SipTransport;
  private readonly from: string;

  constructor(options: {
    to: string;
    caller: string;
    trunk: { host: string; port: number };
    local: { address: string; port: number };
    transport: SipTransport;
  }) {
    const { to, caller, trunk, local, transport } = options;
    this.local = local;
    this.transport = transport;
    this.callId = `${sipToken(12)}@${local.address}`;
    this.requestUri = `sip:${to}@${trunk.host}:${trunk.port}`;
    this.from = `<sip:${caller}@${trunk.host}>;tag=${this.fromTag}`;
    const over = transport === 'TCP' ? ';transport=tcp' : '';
    this.contact = `<sip:${caller}@${local.address}:${local.port}${over}>`;
  }

  request(
    method: string,
    uri: string,
    branch: string,
    cseq: number,
    extra: [string, string][] = [],
    body = '',
  ) {
    // A CANCEL's To is its INVITE's, without the tag the dialog got later (§9.1).
    const toTag = this.remoteTag && method !== 'CANCEL' ? `;tag=${this.remoteTag}` : '';
    return formatRequest(
      method,
      uri,
      [
        ['Via', this.via(branch)],
        ['Max-Forwards', '70'],
        ['From', this.from],
        ['To', `<${this.requestUri}>${toTag}`],
        ['Call-ID', this.callId],
        ['CSeq', `${cseq} ${method}`],
        ['User-Agent', 'Herald'],
        ...extra,
      ],
      body,
    );
  }

  /** The ACK of a non-2xx final answer: within the INVITE's own transaction, its branch (§17.1.1.3). */
  ackOfFailure(response: SipMessage, inviteBranch: string, inviteCseq: number): Buffer {
    return formatRequest('ACK', this.requestUri, [
      ['Via', this.via(inviteBranch)],
      ['Max-Forwards', '70'],
      ['From', this.from],
      ['To', header(response, 'to') ?? `<${this.requestUri}>`],
      ['Call-ID', this.callId],
      ['CSeq', `${inviteCseq} ACK`],
    ]);
  }

  /** The answer to a request the trunk sent in this dialog. */
  response(request: SipMessage, status: number, reason: string): Buffer {
    return formatResponse(status, reason, [
      ...headerValues(request, 'via').map((v): [string, string] => ['Via', v]),
      ['From', header(request, 'from') ?? ''],
      ['To', header(request, 'to') ?? ''],
      ['Call-ID', this.callId],
      ['CSeq', header(request, 'cseq') ?? ''],
    ]);
  }

  private via(branch: string): string {
    return `SIP/2.0/${this.transport} ${this.local.address}:${this.local.port};branch=${branch};rport`;
  }
}
