import type { LoopDefinition } from './loop.ts';

/**
 * Webhook dispatch (core/webhooks/webhook-dispatcher.ts): the `webhooks` consumer of the mail
 * event log fills the push outbox, and claimed pushes are POSTed with retries.
 */
export const webhooksLoop: LoopDefinition = {
  name: 'webhooks',
  start(core) {
    core.webhookDispatcher.start();
    return { close: () => core.webhookDispatcher.stop() };
  },
};
