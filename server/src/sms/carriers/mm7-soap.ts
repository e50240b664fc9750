import type { MmsMedia } from '@herald/shared';
import type { MmsContent } from '../ports.ts';
import { buildMultipart, type NewPart } from './mm7-mime.ts';

/**
 * The SOAP of MM7 (3GPP TS 23.140 §8.7, the MM7 schemas): the SubmitReq a VASP sends and the
 * answers it reads, the DeliveryReportReq a relay sends and the answer it expects. Every
 * message names its schema's namespace, which follows the MM7 version the carrier speaks; the
 * TransactionID in the SOAP header pairs a request with its answer. Reading takes elements by
 * local name, whatever prefix the other side uses.
 */
const SOAP_ENV = 'http://schemas.xmlsoap.org/soap/envelope/';
const SCHEMA_BASE = 'http://www.3gpp.org/ftp/Specs/archive/23_series/23.140/schema/';

/** The schema of each MM7 version carriers commonly run. */
const NAMESPACES: Record<string, string> = {
  '5.3.0': 'REL-5-MM7-1-0',
  '5.5.0': 'REL-5-MM7-1-2',
  '5.6.0': 'REL-5-MM7-1-3',
  '6.8.0': 'REL-6-MM7-1-4',
};

/** The namespace of an MM7 version, or undefined when Herald knows none for it. */
export function mm7Namespace(version: string): string | undefined {
  const release = NAMESPACES[version];
  return release && `${SCHEMA_BASE}${release}`;
}

export interface SubmitRequest {
  namespace: string;
  version: string;
  transactionId: string;
  vaspId: string;
  vasId: string;
  serviceCode: string;
  sender: string;
  to: string;
  mms: MmsContent;
}

/** The HTTP body and Content-Type of one SubmitReq: the envelope and the MMS, SOAP with Attachments. */
export function submitRequest(req: SubmitRequest): { contentType: string; body: Buffer } {
  const content = mmsMultipart(req.mms);
  const envelope = wrap(
    req.namespace,
    req.transactionId,
    element('SubmitReq', req.namespace, [
      tag('MM7Version', req.version),
      `<SenderIdentification>${tag('VASPID', req.vaspId)}${optional('VASID', req.vasId)}${senderAddress(req)}</SenderIdentification>`,
      `<Recipients><To>${tag('Number', req.to)}</To></Recipients>`,
      optional('ServiceCode', req.serviceCode),
      tag('DeliveryReport', 'true'),
      tag('Subject', req.mms.subject),
      `<Content href="cid:${CONTENT_ID}" allowAdaptations="true"/>`,
    ]),
  );
  const { boundary, body } = buildMultipart([
    {
      headers: [
        ['Content-Type', 'text/xml; charset="utf-8"'],
        ['Content-ID', `<${ENVELOPE_ID}>`],
      ],
      body: Buffer.from(envelope, 'utf8'),
    },
    {
      headers: [
        [
          'Content-Type',
          `multipart/related; boundary="${content.boundary}"; type="application/smil"; start="<${SMIL_ID}>"`,
        ],
        ['Content-ID', `<${CONTENT_ID}>`],
      ],
      body: content.body,
    },
  ]);
  return {
    contentType: `multipart/related; boundary="${boundary}"; type="text/xml"; start="<${ENVELOPE_ID}>"`,
    body,
  };
}

const ENVELOPE_ID = 'mm7-envelope';
const CONTENT_ID = 'mms-content';
const SMIL_ID = 'mms-smil';

/** 5.3.0 names the sender as bare text; the later schemas choose its kind of address. */
function senderAddress({ version, sender }: SubmitRequest): string {
  if (!sender) return '';
  if (version === '5.3.0') return tag('SenderAddress', sender);
  return `<SenderAddress>${tag('ShortCode', sender)}</SenderAddress>`;
}

/** The MMS: a SMIL slide per page, each showing its image and text and playing its sound. */
function mmsMultipart(mms: MmsContent): { boundary: string; body: Buffer } {
  const parts: NewPart[] = [];
  const slides = mms.pages.map((page, index) => {
    const n = index + 1;
    const refs: string[] = [];
    if (page.image)
      refs.push(`<img src="cid:${mediaPart(parts, `p${n}-image`, page.image)}" region="Image"/>`);
    if (page.text !== undefined) {
      parts.push(textPart(`p${n}-text`, page.text));
      refs.push(`<text src="cid:p${n}-text" region="Text"/>`);
    }
    if (page.audio) refs.push(`<audio src="cid:${mediaPart(parts, `p${n}-audio`, page.audio)}"/>`);
    return `<par dur="8000ms">${refs.join('')}</par>`;
  });
  const smil = [
    '<smil><head><layout><root-layout width="100%" height="100%"/>',
    '<region id="Image" left="0" top="0" width="100%" height="70%" fit="meet"/>',
    '<region id="Text" left="0" top="70%" width="100%" height="30%"/>',
    `</layout></head><body>${slides.join('')}</body></smil>`,
  ].join('');
  parts.unshift({
    headers: [
      ['Content-Type', 'application/smil; charset="utf-8"'],
      ['Content-ID', `<${SMIL_ID}>`],
      ['Content-Location', 'mms.smil'],
    ],
    body: Buffer.from(smil, 'utf8'),
  });
  return buildMultipart(parts);
}

function textPart(id: string, text: string): NewPart {
  return {
    headers: [
      ['Content-Type', 'text/plain; charset="utf-8"'],
      ['Content-ID', `<${id}>`],
      ['Content-Location', `${id}.txt`],
    ],
    body: Buffer.from(text, 'utf8'),
  };
}

/** Adds a media part and answers its Content-ID; its name comes from its type, never the upload's. */
function mediaPart(parts: NewPart[], id: string, media: MmsMedia): string {
  const type = /^[a-z]+\/[a-z0-9.+-]+$/i.test(media.type) ? media.type : 'application/octet-stream';
  parts.push({
    headers: [
      ['Content-Type', type],
      ['Content-ID', `<${id}>`],
      ['Content-Location', `${id}.${EXTENSIONS[type] ?? 'bin'}`],
      ['Content-Transfer-Encoding', 'binary'],
    ],
    body: Buffer.from(media.data, 'base64'),
  });
  return id;
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'audio/mpeg': 'mp3',
  'audio/amr': 'amr',
  'audio/midi': 'mid',
  'audio/wav': 'wav',
};

/** What a relay answered a SubmitReq: its status, or the SOAP Fault it sent instead. */
export type SubmitAnswer =
  | { kind: 'status'; code: number; text: string; messageId: string }
  | { kind: 'fault'; faultCode: string; faultString: string; code: number | undefined; text: string };

/** The SubmitRsp or Fault of an answer's envelope; undefined when it holds neither. */
export function readSubmitAnswer(xml: string): SubmitAnswer | undefined {
  const fault = read(xml, 'Fault');
  if (fault !== undefined) {
    const code = Number(read(fault, 'StatusCode'));
    return {
      kind: 'fault',
      faultCode: read(fault, 'faultcode') ?? '',
      faultString: read(fault, 'faultstring') ?? '',
      code: Number.isInteger(code) && code > 0 ? code : undefined,
      text: read(fault, 'StatusText') ?? '',
    };
  }
  const rsp = read(xml, 'SubmitRsp');
  const code = Number(rsp === undefined ? Number.NaN : read(rsp, 'StatusCode'));
  if (rsp === undefined || !Number.isInteger(code)) return undefined;
  return {
    kind: 'status',
    code,
    text: read(rsp, 'StatusText') ?? '',
    messageId: read(rsp, 'MessageID') ?? '',
  };
}

/** A request a relay sent the VASP: its kind (DeliveryReportReq, DeliverReq, …) and fields. */
export interface RelayRequest {
  kind: string;
  namespace: string | undefined;
  transactionId: string;
  messageId: string;
  recipient: string;
  mmStatus: string;
  statusText: string;
}

export function readRelayRequest(xml: string): RelayRequest | undefined {
  const body = read(xml, 'Body');
  const root = body && /<(?:[\w.-]+:)?(\w+)(\s[^>]*)?>/.exec(body);
  if (!root || !body) return undefined;
  const recipient = read(body, 'Recipient') ?? '';
  return {
    kind: root[1] as string,
    namespace: /xmlns(?::[\w.-]+)?="([^"]*MM7[^"]*)"/.exec(root[2] ?? '')?.[1],
    transactionId: read(xml, 'TransactionID') ?? '',
    messageId: read(body, 'MessageID') ?? '',
    recipient: read(recipient, 'Number') ?? read(recipient, 'RFC2822Address') ?? recipient,
    mmStatus: read(body, 'MMStatus') ?? '',
    statusText: read(body, 'StatusText') ?? '',
  };
}

/** The VASP's answer to a relay's request: `<kind>Rsp` with the status, or a Fault for what it does not take. */
export function relayAnswer(
  request: { kind: string; transactionId: string },
  namespace: string,
  version: string,
  status: { code: number; text: string },
): string {
  const statusXml = `<Status>${tag('StatusCode', String(status.code))}${tag('StatusText', status.text)}</Status>`;
  if (status.code === 1000 && request.kind.endsWith('Req')) {
    const rsp = `${request.kind.slice(0, -3)}Rsp`;
    return wrap(
      namespace,
      request.transactionId,
      element(rsp, namespace, [tag('MM7Version', version), statusXml]),
    );
  }
  const detail = element('VASPErrorRsp', namespace, [tag('MM7Version', version), statusXml]);
  return wrap(
    namespace,
    request.transactionId,
    `<env:Fault><faultcode>env:Client</faultcode>${tag('faultstring', status.text)}<detail>${detail}</detail></env:Fault>`,
  );
}

function wrap(namespace: string, transactionId: string, body: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<env:Envelope xmlns:env="${SOAP_ENV}">`,
    `<env:Header><mm7:TransactionID xmlns:mm7="${escapeXml(namespace)}" env:mustUnderstand="1">${escapeXml(transactionId)}</mm7:TransactionID></env:Header>`,
    `<env:Body>${body}</env:Body></env:Envelope>`,
  ].join('');
}

function element(name: string, namespace: string, children: string[]): string {
  return `<${name} xmlns="${escapeXml(namespace)}">${children.join('')}</${name}>`;
}

function tag(name: string, value: string): string {
  return `<${name}>${escapeXml(value)}</${name}>`;
}

function optional(name: string, value: string): string {
  return value ? tag(name, value) : '';
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The text of the first element of this local name, entities decoded; undefined when absent. */
function read(xml: string, name: string): string | undefined {
  const match = new RegExp(`<(?:[\\w.-]+:)?${name}(?:\\s[^>]*)?>([\\s\\S]*?)</(?:[\\w.-]+:)?${name}>`).exec(
    xml,
  );
  if (!match) return undefined;
  const inner = (match[1] as string).replace(/^<!\[CDATA\[([\s\S]*)\]\]>$/, '$1');
  return inner.includes('<') ? inner : decodeXml(inner.trim());
}

function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (_, entity: string) => {
    const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
    if (entity[0] !== '#') return named[entity.toLowerCase()] ?? '';
    const code =
      entity[1] === 'x' || entity[1] === 'X' ? Number.parseInt(entity.slice(2), 16) : Number(entity.slice(1));
    return String.fromCodePoint(code);
  });
}
