/**
 * A carrier's MMS relay/server on loopback speaking MM7 (3GPP TS 23.140) as VASPs meet it: SOAP
 * 1.1 over HTTP with the MMS attached (SOAP with Attachments, multipart/related), HTTP Basic
 * credentials, a SubmitRsp per SubmitReq, and a DeliveryReportReq POSTed to the VASP's report
 * URL a while after each accepted MMS. It unpacks every submit down to its parts so a test can
 * hold the very bytes a handset would get: the subject, the SMIL, each text and each image.
 * Behaviour is scripted per recipient number, since relays fail per number; a submit whose
 * Content does not name an attached part is refused as a corrupt message (2007), as a strict
 * relay would. Written from the specification, independently of Herald's client.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWaiter } from './waiter.ts';

/** What the relay does for one recipient. */
export interface Mm7Behaviour {
  /** SubmitRsp StatusCode, e.g. 2002 Address Error or 3001 (server busy). Default 1000. */
  status?: number;
  statusText?: string;
  /** Answer a SOAP Fault (HTTP 500) instead, with a detail status when `status` is set. */
  fault?: { code: 'Client' | 'Server'; text: string };
  /** Answer this bare HTTP status without SOAP, e.g. 500 or 503. */
  httpStatus?: number;
  /** MMStatus of the delivery report. Default 'Retrieved'. */
  report?: string;
  /** Delay before the report, overriding the relay-wide one. */
  reportDelayMs?: number;
  noReport?: boolean;
}

export interface Mm7RelayOptions {
  host?: string;
  port?: number;
  /** user → password for HTTP Basic. When absent, any credentials pass. */
  accounts?: Record<string, string>;
  /** Where delivery reports go (the VASP's URL); none are sent without it. */
  reportUrl?: string;
  /** HTTP Basic credentials the relay presents with its reports; none when absent. */
  reportCredentials?: { user: string; password: string };
  /** Delay between the SubmitRsp and the report. Default 50 ms. */
  reportDelayMs?: number;
}

export interface Mm7Part {
  contentType: string;
  contentId: string;
  contentLocation: string;
  body: Buffer;
}

export interface SubmittedMms {
  user: string;
  transactionId: string;
  version: string;
  namespace: string;
  vaspId: string;
  vasId: string;
  serviceCode: string;
  sender: string;
  recipients: string[];
  subject: string;
  deliveryReport: boolean;
  /** The MMS's parts in order, the SMIL first as VASPs send it. */
  parts: Mm7Part[];
  smil: string;
  /** The text/plain parts, decoded by their charset (UTF-8). */
  texts: string[];
  messageId: string;
  receivedAt: Date;
}

export interface SentMm7Report {
  messageId: string;
  recipient: string;
  mmStatus: string;
  /** The VASP's answer: its HTTP status and DeliveryReportRsp StatusCode (0 when none). */
  httpStatus: number;
  statusCode: number;
}

export interface Mm7Relay {
  readonly host: string;
  readonly port: number;
  /** http://host:port/mm7, the path the relay takes submits on (any path is taken). */
  readonly url: string;
  /** Accepted MMS, oldest first. */
  readonly messages: SubmittedMms[];
  /** Submits answered with anything but success (scripted refusals, bad credentials, corrupt). */
  readonly refused: number;
  /** Reports the VASP answered, oldest first. */
  readonly reports: SentMm7Report[];
  script(recipient: string, behaviour: Mm7Behaviour): void;
  scriptDefault(behaviour: Mm7Behaviour | null): void;
  setReportUrl(url: string): void;
  setReportCredentials(credentials: { user: string; password: string } | null): void;
  /** Sends one DeliveryReportReq now (once, no retry) with the current credentials. */
  report(messageId: string, recipient: string, mmStatus: string): Promise<SentMm7Report>;
  waitForMessages(count: number, timeoutMs?: number): Promise<SubmittedMms[]>;
  waitForReports(count: number, timeoutMs?: number): Promise<SentMm7Report[]>;
  close(): Promise<void>;
}

const DEFAULT_NS = 'http://www.3gpp.org/ftp/Specs/archive/23_series/23.140/schema/REL-5-MM7-1-0';

export async function startMm7Relay(options: Mm7RelayOptions = {}): Promise<Mm7Relay> {
  const messages: SubmittedMms[] = [];
  const reports: SentMm7Report[] = [];
  const scripts = new Map<string, Mm7Behaviour>();
  let fallback: Mm7Behaviour | null = null;
  let reportUrl = options.reportUrl;
  let reportCredentials = options.reportCredentials ?? null;
  let refused = 0;
  let sequence = 0;
  const timers = new Set<NodeJS.Timeout>();
  const arrived = createWaiter(() => messages, 'MM7 submits');
  const reported = createWaiter(() => reports, 'MM7 reports');

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const user = authorised(req, options.accounts);
    const body = await readAll(req);
    if (user === undefined) {
      refused += 1;
      return void res.writeHead(401, { 'www-authenticate': 'Basic realm="mm7"' }).end();
    }
    const submit = readSubmit(body, req.headers['content-type'] ?? '');
    if ('error' in submit) {
      refused += 1;
      const answer = fault('Client', submit.error, DEFAULT_NS, '', 2007);
      return void res.writeHead(500, { 'content-type': 'text/xml' }).end(answer);
    }
    const behaviour = scripts.get(plain(submit.recipients[0] ?? '')) ?? fallback ?? {};
    const ns = submit.namespace;
    if (behaviour.httpStatus) {
      refused += 1;
      return void res.writeHead(behaviour.httpStatus, { 'content-type': 'text/plain' }).end('relay trouble');
    }
    if (behaviour.fault) {
      refused += 1;
      const answer = fault(
        behaviour.fault.code,
        behaviour.fault.text,
        ns,
        submit.transactionId,
        behaviour.status,
      );
      return void res.writeHead(500, { 'content-type': 'text/xml' }).end(answer);
    }
    const status = behaviour.status ?? 1000;
    sequence += 1;
    const messageId = status === 1000 ? `mms${Date.now().toString(36)}${sequence}` : '';
    const statusXml = `<Status><StatusCode>${status}</StatusCode><StatusText>${esc(behaviour.statusText ?? (status === 1000 ? 'Success' : 'Refused'))}</StatusText></Status>`;
    const rsp = `<SubmitRsp xmlns="${ns}"><MM7Version>${esc(submit.version)}</MM7Version>${statusXml}${messageId ? `<MessageID>${messageId}</MessageID>` : ''}</SubmitRsp>`;
    res
      .writeHead(200, { 'content-type': 'text/xml; charset=utf-8' })
      .end(envelope(ns, submit.transactionId, rsp));
    if (status !== 1000) {
      refused += 1;
      return;
    }
    messages.push({ ...submit, user, messageId, receivedAt: new Date() });
    arrived.notify();
    if (submit.deliveryReport && !behaviour.noReport) {
      const delay = behaviour.reportDelayMs ?? options.reportDelayMs ?? 50;
      for (const recipient of submit.recipients) {
        later(delay, () =>
          sendReport(ns, submit.version, messageId, recipient, behaviour.report ?? 'Retrieved', 5),
        );
      }
    }
  };

  const later = (ms: number, run: () => Promise<void>) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      void run();
    }, ms);
    timers.add(timer);
  };

  /** One DeliveryReportReq to the VASP and its answer; throws when the VASP cannot be reached. */
  const postReport = async (
    ns: string,
    version: string,
    messageId: string,
    recipient: string,
    mmStatus: string,
  ): Promise<SentMm7Report> => {
    const req = `<DeliveryReportReq xmlns="${ns}"><MM7Version>${esc(version)}</MM7Version><MMSRelayServerID>herald-test-relay</MMSRelayServerID><MessageID>${esc(messageId)}</MessageID><Recipient><Number>${esc(recipient)}</Number></Recipient><Sender>relay</Sender><Date>${new Date().toISOString()}</Date><MMStatus>${esc(mmStatus)}</MMStatus><StatusText>${esc(mmStatus)}</StatusText></DeliveryReportReq>`;
    const headers: Record<string, string> = { 'content-type': 'text/xml; charset=utf-8', soapaction: '""' };
    if (reportCredentials) {
      const { user, password } = reportCredentials;
      headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    }
    const response = await fetch(reportUrl as string, {
      method: 'POST',
      headers,
      body: envelope(ns, `rpt-${randomBytes(4).toString('hex')}`, req),
    });
    const text = await response.text();
    const sent = {
      messageId,
      recipient,
      mmStatus,
      httpStatus: response.status,
      statusCode: Number(field(text, 'StatusCode') ?? 0),
    };
    reports.push(sent);
    reported.notify();
    return sent;
  };

  const sendReport = async (
    ns: string,
    version: string,
    messageId: string,
    recipient: string,
    mmStatus: string,
    tries: number,
  ): Promise<void> => {
    if (!reportUrl) return;
    try {
      await postReport(ns, version, messageId, recipient, mmStatus);
    } catch {
      // The VASP is not listening yet: relays try again a few times.
      if (tries > 1) later(200, () => sendReport(ns, version, messageId, recipient, mmStatus, tries - 1));
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const address = server.address() as AddressInfo;

  return {
    host: address.address,
    port: address.port,
    url: `http://${address.address}:${address.port}/mm7`,
    messages,
    reports,
    get refused() {
      return refused;
    },
    script: (recipient, behaviour) => scripts.set(plain(recipient), behaviour),
    scriptDefault: (behaviour) => {
      fallback = behaviour;
    },
    setReportUrl: (url) => {
      reportUrl = url;
    },
    setReportCredentials: (credentials) => {
      reportCredentials = credentials;
    },
    report: (messageId, recipient, mmStatus) => {
      if (!reportUrl) return Promise.reject(new Error('the relay has no report URL'));
      const submit = messages.find((m) => m.messageId === messageId);
      return postReport(
        submit?.namespace ?? DEFAULT_NS,
        submit?.version ?? '5.3.0',
        messageId,
        recipient,
        mmStatus,
      );
    },
    waitForMessages: (count, timeoutMs = 5000) => arrived.waitFor(count, timeoutMs),
    waitForReports: (count, timeoutMs = 5000) => reported.waitFor(count, timeoutMs),
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      arrived.cancelAll('MM7 relay closed');
      reported.cancelAll('MM7 relay closed');
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

type ReadSubmit = Omit<SubmittedMms, 'user' | 'messageId' | 'receivedAt'>;

/** The SubmitReq of an HTTP body and the MMS it names, or what is wrong with it. */
function readSubmit(body: Buffer, contentType: string): ReadSubmit | { error: string } {
  const top = mediaType(contentType);
  if (top.type !== 'multipart/related' || !top.params.boundary) return { error: 'not SOAP with Attachments' };
  const parts = splitParts(body, top.params.boundary);
  const root = parts.find((p) => `<${p.contentId}>` === top.params.start) ?? parts[0];
  if (!root) return { error: 'empty multipart' };
  const xml = root.body.toString('utf8');
  const submit = field(xml, 'SubmitReq');
  if (submit === undefined) return { error: 'no SubmitReq' };
  const href = /<(?:\w+:)?Content\s[^>]*href="cid:([^"]+)"/.exec(submit)?.[1];
  const content = parts.find((p) => p.contentId === href);
  if (!content) return { error: `Content names cid:${href ?? '?'}, which is not attached` };
  const inner = mediaType(content.contentType);
  const mmsParts = inner.params.boundary ? splitParts(content.body, inner.params.boundary) : [content];
  const smil = mmsParts.find((p) => p.contentType.startsWith('application/smil'));
  const identification = field(submit, 'SenderIdentification') ?? '';
  const senderXml = field(identification, 'SenderAddress') ?? '';
  return {
    transactionId: field(xml, 'TransactionID') ?? '',
    version: field(submit, 'MM7Version') ?? '',
    namespace: /<(?:\w+:)?SubmitReq[^>]*xmlns(?::\w+)?="([^"]+)"/.exec(xml)?.[1] ?? DEFAULT_NS,
    vaspId: field(identification, 'VASPID') ?? '',
    vasId: field(identification, 'VASID') ?? '',
    serviceCode: field(submit, 'ServiceCode') ?? '',
    sender: senderXml.includes('<') ? (/>([^<]*)</.exec(senderXml)?.[1] ?? '') : senderXml,
    recipients: [...(field(submit, 'Recipients') ?? '').matchAll(/<(?:\w+:)?Number>([^<]*)</g)].map(
      (m) => m[1] as string,
    ),
    subject: field(submit, 'Subject') ?? '',
    deliveryReport: field(submit, 'DeliveryReport') === 'true',
    parts: mmsParts,
    smil: smil?.body.toString('utf8') ?? '',
    texts: mmsParts.filter((p) => p.contentType.startsWith('text/plain')).map((p) => p.body.toString('utf8')),
  };
}

function splitParts(body: Buffer, boundary: string): Mm7Part[] {
  const parts: Mm7Part[] = [];
  const marker = Buffer.from(`--${boundary}`);
  let from = body.indexOf(marker);
  while (from >= 0) {
    const lineEnd = body.indexOf('\r\n', from);
    if (lineEnd < 0 || body.subarray(from + marker.length, from + marker.length + 2).toString() === '--')
      break;
    const end = body.indexOf(Buffer.from(`\r\n--${boundary}`), lineEnd);
    if (end < 0) break;
    const raw = body.subarray(lineEnd + 2, end);
    const gap = raw.indexOf('\r\n\r\n');
    const headers = new Map<string, string>();
    for (const line of raw.subarray(0, gap).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    let content = raw.subarray(gap + 4);
    if (headers.get('content-transfer-encoding')?.toLowerCase() === 'base64')
      content = Buffer.from(content.toString('latin1'), 'base64');
    parts.push({
      contentType: headers.get('content-type') ?? 'text/plain',
      contentId: (headers.get('content-id') ?? '').replace(/^<|>$/g, ''),
      contentLocation: headers.get('content-location') ?? '',
      body: Buffer.from(content),
    });
    from = end + 2;
  }
  return parts;
}

function mediaType(value: string): { type: string; params: Record<string, string> } {
  const [type = '', ...rest] = value.split(';');
  const params: Record<string, string> = {};
  for (const p of rest) {
    const match = /^\s*([\w-]+)\s*=\s*"?([^"]*)"?\s*$/.exec(p);
    if (match) params[(match[1] as string).toLowerCase()] = match[2] as string;
  }
  return { type: type.trim().toLowerCase(), params };
}

function authorised(req: IncomingMessage, accounts: Record<string, string> | undefined): string | undefined {
  const header = req.headers.authorization ?? '';
  const decoded = header.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const user = colon < 0 ? '' : decoded.slice(0, colon);
  if (!accounts) return user;
  return colon >= 0 && accounts[user] === decoded.slice(colon + 1) ? user : undefined;
}

function envelope(ns: string, transactionId: string, body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Header><m:TransactionID xmlns:m="${ns}" soap:mustUnderstand="1">${esc(transactionId)}</m:TransactionID></soap:Header><soap:Body>${body}</soap:Body></soap:Envelope>`;
}

function fault(
  code: 'Client' | 'Server',
  text: string,
  ns: string,
  transactionId: string,
  status?: number,
): string {
  const detail =
    status === undefined
      ? ''
      : `<detail><RSErrorRsp xmlns="${ns}"><MM7Version>5.3.0</MM7Version><Status><StatusCode>${status}</StatusCode><StatusText>${esc(text)}</StatusText></Status></RSErrorRsp></detail>`;
  return envelope(
    ns,
    transactionId,
    `<soap:Fault><faultcode>soap:${code}</faultcode><faultstring>${esc(text)}</faultstring>${detail}</soap:Fault>`,
  );
}

/** The inner text of the first element of this local name (entities decoded when it is text). */
function field(xml: string, name: string): string | undefined {
  const match = new RegExp(`<(?:\\w+:)?${name}(?:\\s[^>]*)?>([\\s\\S]*?)</(?:\\w+:)?${name}>`).exec(xml);
  if (!match) return undefined;
  const inner = (match[1] as string).trim();
  if (inner.includes('<')) return inner;
  return inner
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(
      /&(lt|gt|amp|quot|apos);/g,
      (_, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[e] ?? '',
    );
}

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function plain(number: string): string {
  return number.replace(/^\+/, '');
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
