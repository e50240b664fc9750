import { batchLoop } from './batch-loop.ts';

/**
 * Keeps the statistics rollups up to date: folds the mail event log into them batch by batch
 * (core.statistics.rollUp, one transaction per batch with the consumer's cursor), at once while
 * there is a backlog, and every second once caught up. Several workers may run it: the cursor
 * row serialises them, so each event is counted once.
 */
export const STATISTICS_BATCH = 5000;

export const statisticsLoop = batchLoop({
  name: 'statistics-rollup',
  batch: STATISTICS_BATCH,
  idleMs: 1000,
  step: (core, batch) => core.statistics.rollUp(batch),
});
