import { batchLoop } from './batch-loop.ts';

/**
 * Charging by result (core/ledger/charging.ts): the mail outcomes and the SMS receipts after the
 * charging cursors, each batch charged in one transaction with its cursor. A full batch of
 * either log runs the next at once; caught up, it looks again every half second, so a balance
 * trails sending by about that.
 */
export const CHARGING_BATCH = 5000;

export const chargingLoop = batchLoop({
  name: 'charging',
  batch: CHARGING_BATCH,
  idleMs: 500,
  step: async (core, batch) =>
    Math.max(await core.ledger.chargeMail(batch), await core.ledger.chargeSms(batch)),
});
