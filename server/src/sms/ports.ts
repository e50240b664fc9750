import type { MmsPage } from '@herald/shared';

/**
 * What the SMS channel offers the rest of Herald, and the only file of sms/ the core may import.
 * A carrier connection implements SmsCarrier, so another protocol (CMPP, an HTTP gateway) is one
 * more file under sms/carriers/ implementing it, plus one line in sms/carriers/open-carrier.ts. A refusal is an outcome that says whether trying
 * again later could help; receipts arrive later, on their own, through the callback given at
 * construction.
 */
export interface SmsSubmission {
  to: string;
  /** Sender id: a short code, a number, or an alphanumeric name. */
  from: string;
  text: string;
  /** A task's SMS: it waits behind every transactional one for a place in the window. */
  bulk?: boolean;
  /** An MMS (msgType 1): its pages, texts filled; only a carrier that `carriesMms` takes one. */
  mms?: MmsContent;
  /** A voice code (msgType 3): the digits a call reads out, and the language of its prompts. */
  voice?: { code: string; language: 'zh-cn' | 'en' };
}

/** An MMS as a carrier sends it: the subject (the signed title, as `text`) and up to 3 pages. */
export interface MmsContent {
  subject: string;
  pages: MmsPage[];
}

/** Whether a carrier's protocol carries MMS (MM7); such a carrier carries nothing else. */
export function carriesMms(url: string): boolean {
  return /^mm7s?:/i.test(url);
}

export type SubmitOutcome =
  | { kind: 'accepted'; messageIds: string[] }
  | { kind: 'refused'; permanent: boolean; reason: string };

export type ReceiptListener = (receipt: DeliveryReceipt) => void;

export interface SmsCarrier {
  submit(sms: SmsSubmission, signal?: AbortSignal): Promise<SubmitOutcome>;
  close(): Promise<void>;
}

/**
 * A carrier's delivery receipt about one submitted part. ACCEPTD and ENROUTE are interim states;
 * every other one is final.
 */
export interface DeliveryReceipt {
  /** The carrier's message id the receipt is about (as returned when the part was submitted). */
  messageId: string;
  /** DELIVRD, UNDELIV, REJECTD, EXPIRED, DELETED, UNKNOWN, ACCEPTD or ENROUTE. */
  stat: string;
  err: string | undefined;
  delivered: boolean;
  final: boolean;
}

/** `UNDELIV (err 013)`: the carrier's words, for the message's reason. */
export function describeReceipt(receipt: DeliveryReceipt): string {
  return receipt.err ? `${receipt.stat} (err ${receipt.err})` : receipt.stat;
}

/** A message a handset sent to a service number (SMPP deliver_sm, CMPP DELIVER with Registered_Delivery 0). */
export interface MobileOriginated {
  /** The handset's number. */
  from: string;
  /** The number it wrote to: the service code, with any extension the SP sent from. */
  to: string;
  text: string;
  receivedAt: Date;
}

/** A reply as the channel hands it to the core: the message and the carrier it came from. */
export interface CarrierReply extends MobileOriginated {
  carrierId: number;
  /** That carrier's service code, which the extension follows (see serviceCode); '' for none. */
  carrierSource: string;
}

/** What the SMS channel tells the core of replies: store, attribute, honour opt-outs. */
export interface SmsReplies {
  received(reply: CarrierReply): Promise<void>;
}

/**
 * The numeric service code a carrier's submits start from, which extensions follow: the sender id
 * when it is numeric, else a CMPP carrier's `srcId` (the SP's service code in its URL); '' when
 * the carrier sends from a name.
 */
export function serviceCode(carrier: { url: string; sourceAddr: string }): string {
  if (/^\d+$/.test(carrier.sourceAddr)) return carrier.sourceAddr;
  if (!carrier.url.startsWith('cmpp:')) return '';
  const srcId = new URL(carrier.url).searchParams.get('srcId') ?? '';
  return /^\d+$/.test(srcId) ? srcId : '';
}

/** Whether a carrier places phone calls (a SIP trunk): the only kind a voice code goes to, as a call. */
export function placesCalls(url: string): boolean {
  return /^sip:/i.test(url);
}

/** The account a reply's destination names by its extension, or undefined. */
export function accountOfExtension(carrierSource: string, to: string): number | undefined {
  const dest = to.trim().replace(/^\+/, '');
  if (!/^\d+$/.test(carrierSource) || !dest.startsWith(carrierSource)) return undefined;
  const ext = dest.slice(carrierSource.length);
  return /^[1-9]\d{0,14}$/.test(ext) ? Number(ext) : undefined;
}

/** Opens a carrier session whose receipts go to `onReceipt`; the session connects on first use. */
export type OpenCarrier = (onReceipt: ReceiptListener) => SmsCarrier;

/** A carrier connection as the operator configured it (its secret already opened). */
export interface CarrierConfig {
  id: number;
  name: string;
  /** smpp://host:port or cmpp://host:port?… */
  url: string;
  systemId: string;
  password: string;
  /** The sender id submits go out with. */
  sourceAddr: string;
  perSecond: number;
  /** Changes when the operator edits the connection, so an open session is replaced. */
  version: number;
}

/** Which carriers may take a number: by country (ISO alpha-2 or `*`), national prefix and kind. */
export interface CarrierRoute {
  carrierId: number;
  country: string;
  prefix: string;
  /** sms, voice, mms or `*`. */
  kind: string;
  priority: number;
}

/** What the SMS channel asks the core for: the enabled carriers and the routes to them. */
export interface CarrierDirectory {
  load(): Promise<{ carriers: CarrierConfig[]; routes: CarrierRoute[] }>;
}

/** What sender id a country takes (international SMS): any, numeric only, or a name. */
export interface CountrySender {
  rule: 'any' | 'numeric' | 'alphanumeric';
  /** The name to send from where names are the rule. */
  senderId: string | null;
}

/** What the SMS channel asks the core of countries' sender rules (read through a short cache). */
export interface SenderRules {
  of(country: string): Promise<CountrySender | undefined>;
}

/**
 * The sender of one submit: a country that wants a name gets the operator's name for it; any
 * other gets the carrier's service code with the account's extension (which is also what a
 * numeric-only country needs).
 */
export function senderFor(
  carrier: { url: string; sourceAddr: string },
  accountId: number,
  country: CountrySender | undefined,
): string {
  if (country?.rule === 'alphanumeric' && country.senderId) return country.senderId;
  const code = serviceCode(carrier);
  return code ? `${code}${accountId}` : carrier.sourceAddr;
}

/** A message of a claimed batch, as interception looks at it. */
export interface InterceptionItem {
  id: number;
  accountId: number;
  /** E.164. */
  phone: string;
  content: string;
}

/** A carrier's final failure of one message. */
export interface CarrierFailure {
  accountId: number;
  phone: string;
  statusCode: number;
  at: number;
}

/**
 * What the SMS channel asks the core before it submits, and tells it after a failed receipt:
 * which messages the interception lists or keyword filter stop (a 4xx processing failure), and
 * which carrier results put a number on a list for a while (reference §11).
 */
export interface SmsInterception {
  check(items: InterceptionItem[]): Promise<Map<number, { statusCode: number; reason: string }>>;
  carrierFailed(failures: CarrierFailure[]): Promise<void>;
}
