import { AppError, type ErrorCode, SEND_ADDRESS_PATTERN, splitAddressList } from '@herald/shared';

/** A parsed `from`: SendCloud accepts `Name<addr>` and moves the name into fromName. */
export interface Sender {
  address: string;
  name: string | null;
}

const NAMED = /^\s*"?([^"<]*?)"?\s*<\s*([^<>\s]+)\s*>\s*$/;

export function parseSender(from: string | undefined, fromName: string | undefined): Sender {
  const raw = (from ?? '').trim();
  if (!raw) throw new AppError('SEND_FROM_REQUIRED');
  const named = NAMED.exec(raw);
  const address = (named ? named[2] : raw) ?? '';
  if (!isAddress(address)) throw new AppError('SEND_FROM_INVALID');
  const name = (fromName ?? '').trim() || named?.[1]?.trim() || null;
  if (name !== null && (name.length > 255 || /[\r\n]/.test(name)))
    throw new AppError('SEND_FROM_NAME_INVALID');
  return { address, name };
}

export function isAddress(value: string): boolean {
  return value.length <= 254 && SEND_ADDRESS_PATTERN.test(value);
}

export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/** Codes for one address field: what an invalid address and too many addresses answer. */
export interface ListCodes {
  invalid: ErrorCode;
  tooMany: ErrorCode;
}

/**
 * A `;`-separated address list (SendCloud's to, cc, bcc, replyTo). Each entry may be a bare
 * address or `Name<addr>`; the address is what is kept.
 */
export function parseAddressList(value: string | undefined, max: number, codes: ListCodes): string[] {
  return checkAddresses(splitAddressList(value), max, codes);
}

export function checkAddresses(entries: string[], max: number, codes: ListCodes): string[] {
  if (entries.length > max) throw new AppError(codes.tooMany, { max });
  return entries.map((entry) => {
    const named = NAMED.exec(entry);
    const address = (named ? named[2] : entry)?.trim() ?? '';
    if (!isAddress(address)) throw new AppError(codes.invalid, { address: entry.slice(0, 100) });
    return address;
  });
}
