import type { LoopDefinition } from './loop.ts';

/** Delivers accepted mail: claims due recipients and runs the pipeline (server/src/mta/pipeline). */
export const deliverEmailLoop: LoopDefinition = {
  name: 'deliver-email',
  start(core) {
    core.delivery.start();
    return { close: (timeoutMs) => core.delivery.stop(timeoutMs) };
  },
};
