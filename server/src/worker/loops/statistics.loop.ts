import type { LoopDefinition } from './loop.ts';

/**
 * Keeps the statistics rollups up to date: folds the mail event log into them batch by batch
 * (core.statistics.rollUp, one transaction per batch with the consumer's cursor), at once while
 * there is a backlog, and every IDLE_MS once caught up. Several workers may run it: the cursor
 * row serialises them, so each event is counted once.
 */
export const STATISTICS_BATCH = 5000;
const IDLE_MS = 1000;
const FAILURE_PAUSE_MS = 5000;

export const statisticsLoop: LoopDefinition = {
  name: 'statistics-rollup',
  start(core) {
    let stopped = false;
    let wake: (() => void) | undefined;
    const pause = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    const run = (async () => {
      while (!stopped) {
        try {
          const applied = await core.statistics.rollUp(STATISTICS_BATCH);
          if (applied < STATISTICS_BATCH) await pause(IDLE_MS);
        } catch (err) {
          core.logger.error({ err }, 'statistics rollup failed');
          await pause(FAILURE_PAUSE_MS);
        }
      }
    })();
    return {
      async close(timeoutMs) {
        stopped = true;
        wake?.();
        await Promise.race([run, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
      },
    };
  },
};
