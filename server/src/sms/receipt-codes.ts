import type { DeliveryReceipt } from './ports.ts';

/**
 * A carrier's final receipt as the send-failed code of reference §11 (500 empty number … 590
 * other), from the table of sms-carrier-protocols.md §11. CMPP carries the carrier's own code in
 * Stat (`MK:0001`); SMPP in err. The generic words come last: EXPIRED reads as powered off and
 * UNDELIV as suspended only when no finer code says otherwise, and anything unknown is 590.
 * Carriers differ, so this is a starting table, not a law.
 */
const BY_CARRIER_CODE: [number, RegExp][] = [
  [500, /^(MK:0001|MK:0012|MK00001|MN:0001|MK:0002|ID:010[01]|DB:010[01]|CB:0001|CB:0053)/],
  [510, /^(DB:010[23]|ID:010[23]|MI:0013|MK:0005)/],
  [520, /^(ID:0069|ID:009[67]|DB:0141|DB:014[4-6]|MB:1077|HD:0001)/],
  [530, /^MK:0023/],
  [550, /^(ID:0076|MB:1083|MA:0002|MA:0012|REJECTD)/],
  [560, /^(MK:001[5-7]|MK:0022|MK:02(08|09|10))/],
  [570, /^(MK:000[89]|MC:0055)/],
  [580, /^(MK:0024|MI:0024|MI:0029)/],
];

/** SMPP/SMGP-style three-digit err values with a widely shared meaning. */
const BY_ERR: Record<string, number> = {
  '001': 570,
  '002': 530,
  '003': 560,
  '004': 500,
  '005': 520,
  '007': 560,
  '008': 560,
};

/**
 * A voice call's outcome (sip-call.ts): NOANSWR is its own stat, the no-answer of 540; the SIP
 * status rides in err (`SIP 486`), and busy is 530.
 */
const SIP_BUSY = /^SIP (486|600)$/;

export function receiptStatusCode(receipt: DeliveryReceipt): number {
  if (receipt.delivered) return 200;
  const stat = receipt.stat.toUpperCase();
  if (stat === 'NOANSWR') return 540;
  if (receipt.err && SIP_BUSY.test(receipt.err)) return 530;
  for (const [code, pattern] of BY_CARRIER_CODE) if (pattern.test(stat)) return code;
  const byErr = receipt.err ? BY_ERR[receipt.err] : undefined;
  if (byErr) return byErr;
  if (stat === 'EXPIRED') return 580;
  if (stat === 'UNDELIV') return 510;
  return 590;
}
