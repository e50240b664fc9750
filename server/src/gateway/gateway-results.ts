import { AppError } from '@herald/shared';

/**
 * How a refused submit is answered. CMPP reserves results 0-99 to the spec and leaves 100-199 to
 * the gateway (reference §4.2), so Herald's own reasons take codes there; SMPP has a status for
 * most of them (reference §9.5). Anything the send path refuses that is not listed is 199 /
 * ESME_RSUBMITFAIL; an unexpected failure (the database away) is "too fast, send again later".
 *
 * | CMPP | SMPP | why |
 * | --- | --- | --- |
 * | 8 | ESME_RTHROTTLED 0x58 | over the user's rate, or a failure on Herald's side: resend later |
 * | 8 | ESME_RMSGQFUL 0x14 | over the user's window |
 * | 13 | ESME_RINVDSTADR 0x0B | a number that is not a mainland mobile, empty, or given twice |
 * | 1 | ESME_RINVMSGLEN 0x01 | content not text (Msg_Fmt other than 0, 8, 15), or unreadable |
 * | 100 | ESME_RSUBMITFAIL 0x45 | the account may not send SMS (state, certification, filing) |
 * | 101 | ESME_RSUBMITFAIL 0x45 | no 【signature】 at the start or end, or not a passed one |
 * | 102 | ESME_RSUBMITFAIL 0x45 | the text matches no passed template of its signature |
 * | 103 | ESME_RTHROTTLED 0x58 | anti-bombing: the number's limit for the minute or day |
 */
export const SMPP_STATUS = {
  ESME_ROK: 0x00,
  ESME_RINVMSGLEN: 0x01,
  ESME_RINVCMDID: 0x03,
  ESME_RINVBNDSTS: 0x04,
  ESME_RALYBND: 0x05,
  ESME_RSYSERR: 0x08,
  ESME_RINVDSTADR: 0x0b,
  ESME_RBINDFAIL: 0x0d,
  ESME_RINVPASWD: 0x0e,
  ESME_RMSGQFUL: 0x14,
  ESME_RSUBMITFAIL: 0x45,
  ESME_RTHROTTLED: 0x58,
} as const;

export interface Refusal {
  cmpp: number;
  smpp: number;
  reason: string;
}

export const REFUSALS = {
  rate: { cmpp: 8, smpp: SMPP_STATUS.ESME_RTHROTTLED, reason: 'over the rate' },
  window: { cmpp: 8, smpp: SMPP_STATUS.ESME_RMSGQFUL, reason: 'over the window' },
  format: { cmpp: 1, smpp: SMPP_STATUS.ESME_RINVMSGLEN, reason: 'content not readable as text' },
  unavailable: { cmpp: 8, smpp: SMPP_STATUS.ESME_RTHROTTLED, reason: 'Herald could not take it now' },
} as const satisfies Record<string, Refusal>;

const BY_CODE: Record<string, Omit<Refusal, 'reason'>> = {
  SMS_PHONE_INVALID: { cmpp: 13, smpp: SMPP_STATUS.ESME_RINVDSTADR },
  SMS_PHONE_EMPTY: { cmpp: 13, smpp: SMPP_STATUS.ESME_RINVDSTADR },
  SMS_PHONE_DUPLICATE: { cmpp: 13, smpp: SMPP_STATUS.ESME_RINVDSTADR },
  SMS_PHONE_TOO_MANY: { cmpp: 13, smpp: SMPP_STATUS.ESME_RINVDSTADR },
  SMS_PHONE_ALL_REFUSED: { cmpp: 13, smpp: SMPP_STATUS.ESME_RINVDSTADR },
  ACCOUNT_SUSPENDED: { cmpp: 100, smpp: SMPP_STATUS.ESME_RSUBMITFAIL },
  ACCOUNT_FROZEN: { cmpp: 100, smpp: SMPP_STATUS.ESME_RSUBMITFAIL },
  SMS_NOT_ALLOWED: { cmpp: 100, smpp: SMPP_STATUS.ESME_RSUBMITFAIL },
  SMS_GATEWAY_SIGN_MISSING: { cmpp: 101, smpp: SMPP_STATUS.ESME_RSUBMITFAIL },
  SMS_SIGN_UNUSABLE: { cmpp: 101, smpp: SMPP_STATUS.ESME_RSUBMITFAIL },
  SMS_GATEWAY_TEMPLATE_UNMATCHED: { cmpp: 102, smpp: SMPP_STATUS.ESME_RSUBMITFAIL },
  SMS_TEMPLATE_NOT_FOUND: { cmpp: 102, smpp: SMPP_STATUS.ESME_RSUBMITFAIL },
  SMS_TEMPLATE_NOT_PASSED: { cmpp: 102, smpp: SMPP_STATUS.ESME_RSUBMITFAIL },
  SMS_TEMPLATE_TYPE_MISMATCH: { cmpp: 102, smpp: SMPP_STATUS.ESME_RSUBMITFAIL },
  SMS_VAR_MISSING: { cmpp: 102, smpp: SMPP_STATUS.ESME_RSUBMITFAIL },
  SMS_FREQUENCY_MINUTE: { cmpp: 103, smpp: SMPP_STATUS.ESME_RTHROTTLED },
  SMS_FREQUENCY_DAY: { cmpp: 103, smpp: SMPP_STATUS.ESME_RTHROTTLED },
};

/** The answer to a submit the core refused (or failed on). */
export function refusalOf(error: unknown): Refusal {
  if (!(error instanceof AppError)) return REFUSALS.unavailable;
  const known = BY_CODE[error.code];
  return { ...(known ?? { cmpp: 199, smpp: SMPP_STATUS.ESME_RSUBMITFAIL }), reason: error.code };
}
