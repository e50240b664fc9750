import type { LoopDefinition } from './loop.ts';

/** Sends accepted SMS: claims due messages, submits them to carriers and records their receipts (server/src/sms). */
export const deliverSmsLoop: LoopDefinition = {
  name: 'deliver-sms',
  start(core) {
    core.smsDelivery.start();
    return { close: (timeoutMs) => core.smsDelivery.stop(timeoutMs) };
  },
};
