import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { DeliveryReceipt, ReceiptListener, SmsCarrier, SmsSubmission, SubmitOutcome } from '../ports.ts';
import { soapPartOf } from './mm7-mime.ts';
import { joinReports } from './mm7-reports.ts';
import {
  mm7Namespace,
  readRelayRequest,
  readSubmitAnswer,
  relayAnswer,
  type SubmitAnswer,
  submitRequest,
} from './mm7-soap.ts';
import { SubmitWindow } from './submit-window.ts';

/**
 * MMS over MM7 (3GPP TS 23.140), the interface carriers give service providers to their MMS
 * relay: each MMS is one HTTP POST of a SOAP SubmitReq with the MMS attached (mm7-soap.ts), the
 * systemId and password as HTTP Basic credentials. The SubmitRsp's status decides: 1000 accepted
 * under its MessageID, 2xxx the request's own fault (permanent), 3xxx/4xxx the relay's (for now,
 * so the pipeline fails over). A SOAP Fault is refused with its text; an HTTP 5xx, a timeout or
 * an unreachable relay is a refusal for now.
 *
 * Delivery reports come the other way: the relay POSTs DeliveryReportReq to the VASP's own URL,
 * which the operator gives the carrier. When the carrier URL names a `reportPort`, this connector
 * takes reports there (mm7-reports.ts: one listener per port in each worker process, reports
 * spread over the workers by the kernel; each one reaches the normal receipt path, which records
 * a report in whichever worker it lands). A report must carry the carrier's systemId and password
 * as HTTP Basic credentials (the pair the VASP and the relay share), which also tell carriers on
 * one port apart; anything else is answered 401 and not read. `reportAuth=none` takes reports
 * without credentials, for a relay that sends none: then only the relay may reach the port.
 */
export interface Mm7ConnectorOptions {
  /** mm7://host:port/path or mm7s://… with its query (see open-carrier.ts). */
  url: string;
  systemId: string;
  password: string;
  namespace: string;
  version: string;
  vaspId: string;
  vasId: string;
  serviceCode: string;
  logger: Logger;
  onReceipt: ReceiptListener;
  /** Requests awaiting their answer at once. Default 8. */
  windowSize?: number;
  /** Requests started per second; unlimited when absent. */
  submitsPerSecond?: number;
  /** How long one request may take. Default 30 s. */
  timeoutMs?: number;
  /**
   * Where the relay's reports arrive; none are taken without a port. `authenticate` (the default)
   * takes only reports with this carrier's credentials.
   */
  report?: { host: string; port: number; authenticate: boolean };
}

/** Reports larger than this are not MM7 reports. */
const MAX_REPORT_BYTES = 1024 * 1024;

/** What an mm7:// URL's query says (open-carrier.ts); throws on a value no relay could take. */
export function mm7Settings(
  url: URL,
): Pick<
  Mm7ConnectorOptions,
  'namespace' | 'version' | 'vaspId' | 'vasId' | 'serviceCode' | 'timeoutMs' | 'report'
> {
  const query = url.searchParams;
  const version = query.get('version') || '5.3.0';
  const namespace = query.get('namespace') || mm7Namespace(version);
  if (!namespace)
    throw new Error(`MM7 version ${version} needs its schema's namespace in the URL (namespace=…)`);
  const reportPort = query.get('reportPort');
  const port = Number(reportPort);
  if (reportPort && !(Number.isInteger(port) && port > 0 && port < 65536))
    throw new Error(`MM7 reportPort must be a port number, not ${reportPort}`);
  const reportAuth = query.get('reportAuth') || 'basic';
  if (reportAuth !== 'basic' && reportAuth !== 'none')
    throw new Error(`MM7 reportAuth must be basic or none, not ${reportAuth}`);
  const timeout = Number(query.get('timeout') || 30);
  if (!(timeout > 0))
    throw new Error(`MM7 timeout must be a positive number of seconds, not ${query.get('timeout')}`);
  return {
    namespace,
    version,
    vaspId: query.get('vaspId') ?? '',
    vasId: query.get('vasId') ?? '',
    serviceCode: query.get('serviceCode') ?? '',
    timeoutMs: timeout * 1000,
    report: reportPort
      ? { host: query.get('reportHost') || '0.0.0.0', port, authenticate: reportAuth === 'basic' }
      : undefined,
  };
}

export class Mm7Connector implements SmsCarrier {
  private readonly options: Mm7ConnectorOptions;
  private readonly endpoint: string;
  private readonly authorization: string;
  private readonly window: SubmitWindow;
  /** Stops taking reports (mm7-reports.ts). */
  private readonly leaveReports: (() => Promise<void>) | undefined;

  constructor(options: Mm7ConnectorOptions) {
    this.options = options;
    // An mm7: URL cannot take an http: scheme through URL's setter (special schemes), so by hand.
    const url = new URL(options.url);
    this.endpoint = `${url.protocol === 'mm7s:' ? 'https:' : 'http:'}//${url.host}${url.pathname}`;
    this.authorization = `Basic ${Buffer.from(`${options.systemId}:${options.password}`).toString('base64')}`;
    this.window = new SubmitWindow({ size: options.windowSize ?? 8, perSecond: options.submitsPerSecond });
    const { report } = options;
    this.leaveReports =
      report &&
      joinReports(
        report,
        {
          authorization: report.authenticate ? this.authorization : null,
          take: (req, res) => this.onRequest(req, res),
        },
        options.logger,
      );
  }

  async submit(sms: SmsSubmission, signal?: AbortSignal): Promise<SubmitOutcome> {
    if (!sms.mms) return { kind: 'refused', permanent: true, reason: 'MM7 carries MMS only' };
    if (!(await this.window.acquire(signal, sms.bulk)))
      return { kind: 'refused', permanent: false, reason: 'the MM7 connection is closing' };
    try {
      return await this.post(sms, sms.mms, signal);
    } finally {
      this.window.release();
    }
  }

  async close(): Promise<void> {
    this.window.close();
    await this.leaveReports?.();
  }

  private async post(
    sms: SmsSubmission,
    mms: NonNullable<SmsSubmission['mms']>,
    signal: AbortSignal | undefined,
  ): Promise<SubmitOutcome> {
    const { options } = this;
    const request = submitRequest({
      namespace: options.namespace,
      version: options.version,
      transactionId: randomUUID(),
      vaspId: options.vaspId,
      vasId: options.vasId,
      serviceCode: options.serviceCode,
      sender: sms.from,
      to: sms.to,
      mms,
    });
    const timeout = AbortSignal.timeout(options.timeoutMs ?? 30_000);
    let response: Response;
    let body: Buffer;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers: {
          'content-type': request.contentType,
          soapaction: '""',
          authorization: this.authorization,
        },
        body: request.body as Uint8Array<ArrayBuffer>,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      body = Buffer.from(await response.arrayBuffer());
    } catch (error) {
      const reason = timeout.aborted ? 'no answer from the MM7 relay in time' : (error as Error).message;
      return { kind: 'refused', permanent: false, reason };
    }
    const answer = readSubmitAnswer(soapPartOf(body, response.headers.get('content-type') ?? ''));
    return submitOutcome(response.status, answer);
  }

  /** A relay's request for this carrier: a DeliveryReportReq becomes a receipt; anything else is not taken. */
  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const request = body && readRelayRequest(soapPartOf(body, req.headers['content-type'] ?? ''));
    const { namespace, version } = this.options;
    if (!request) {
      const fault = relayAnswer({ kind: '', transactionId: '' }, namespace, version, {
        code: 4000,
        text: 'Client error: not an MM7 request',
      });
      return void res.writeHead(500, { 'content-type': 'text/xml; charset=utf-8' }).end(fault);
    }
    const receipt = request.kind === 'DeliveryReportReq' ? receiptOf(request) : undefined;
    if (receipt) this.options.onReceipt(receipt);
    const status = receipt
      ? { code: 1000, text: 'Success' }
      : { code: 4004, text: `Unsupported operation: ${request.kind}` };
    const answer = relayAnswer(request, request.namespace ?? namespace, version, status);
    res.writeHead(receipt ? 200 : 500, { 'content-type': 'text/xml; charset=utf-8' }).end(answer);
  }
}

/** What a SubmitRsp, a Fault or the bare HTTP status means for the message. */
export function submitOutcome(httpStatus: number, answer: SubmitAnswer | undefined): SubmitOutcome {
  if (answer?.kind === 'status') {
    const { code, text } = answer;
    if ((code === 1000 || code === 1100) && answer.messageId)
      return { kind: 'accepted', messageIds: [answer.messageId] };
    return { kind: 'refused', permanent: code >= 2000 && code < 3000, reason: `MM7 ${code} ${text}`.trim() };
  }
  if (answer?.kind === 'fault') {
    const status = answer.code ? ` (${[answer.code, answer.text].filter(Boolean).join(' ')})` : '';
    const permanent = answer.code
      ? answer.code >= 2000 && answer.code < 3000
      : /client/i.test(answer.faultCode);
    return { kind: 'refused', permanent, reason: `SOAP Fault ${answer.faultString}${status}`.trim() };
  }
  if (
    httpStatus >= 500 ||
    httpStatus === 401 ||
    httpStatus === 403 ||
    httpStatus === 404 ||
    httpStatus === 429
  )
    return { kind: 'refused', permanent: false, reason: `MM7 relay answered HTTP ${httpStatus}` };
  // Anything else may have been taken: sending it again could deliver it twice.
  return {
    kind: 'refused',
    permanent: true,
    reason: `MM7 relay answered HTTP ${httpStatus} without a SubmitRsp`,
  };
}

/** MMStatus (TS 23.140 §8.7.4) as a receipt: Retrieved delivers; Deferred and Forwarded are on the way. */
const MM_STATUSES: Record<string, Pick<DeliveryReceipt, 'stat' | 'delivered' | 'final'>> = {
  retrieved: { stat: 'DELIVRD', delivered: true, final: true },
  expired: { stat: 'EXPIRED', delivered: false, final: true },
  rejected: { stat: 'REJECTD', delivered: false, final: true },
  deliveryconditionnotmet: { stat: 'UNDELIV', delivered: false, final: true },
  deferred: { stat: 'ENROUTE', delivered: false, final: false },
  forwarded: { stat: 'ENROUTE', delivered: false, final: false },
};

function receiptOf(request: { messageId: string; mmStatus: string }): DeliveryReceipt | undefined {
  if (!request.messageId) return undefined;
  // Indeterminate, Unrecognised and any word the relay adds are final without a known result.
  const status = MM_STATUSES[request.mmStatus.toLowerCase()] ?? {
    stat: 'UNKNOWN',
    delivered: false,
    final: true,
  };
  return { messageId: request.messageId, err: undefined, ...status };
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_REPORT_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
