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
