import type { DeliveryReceipt } from './delivery-receipt.ts';

/**
 * What the SMS pipeline needs from a carrier connection, so another protocol (CMPP, an HTTP
 * gateway) is one more file implementing this. A refusal is an outcome that says whether trying
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
