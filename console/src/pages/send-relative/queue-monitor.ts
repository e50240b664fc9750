import {
  mergeQueues,
  QUEUE_POLL_MS,
  type QueueRow,
  type QueueSample,
  replaceQueues,
  shouldPoll,
} from '../../stores/queue-status-merge.ts';

/**
 * The queue monitor's polling (console-spec §4 "Queue monitor", §8 "The queue status call shows
 * the error text as a toast and empties the queue list on failure"), free of React and timers so
 * it can be tested in Node: the first load replaces the list, each later poll (every 5000 ms)
 * merges by apiUserName and domain with at most 10 chart points (queue-status-merge.ts); polling
 * stops when the list is empty or the page is closed and skips a beat while a chart loads.
 */
export interface MonitorClock {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** The label of a chart point, e.g. "10:15:05". */
  label(): string;
}

export interface MonitorCallbacks<S extends QueueSample> {
  fetch(): Promise<S[]>;
  onRows(rows: readonly QueueRow[]): void;
  onError(message: string): void;
}

export interface QueueMonitor {
  /** First load (replaces the list), then polling. */
  start(): Promise<void>;
  /** The page closed: no more polls. */
  stop(): void;
  /** A load outside the timer (after an action): merges, and restarts polling if it had stopped. */
  refresh(): Promise<void>;
  setChartLoading(loading: boolean): void;
  readonly rows: readonly QueueRow[];
  readonly polling: boolean;
}

export function createQueueMonitor<S extends QueueSample>(
  callbacks: MonitorCallbacks<S>,
  clock: MonitorClock,
  intervalMs: number = QUEUE_POLL_MS,
): QueueMonitor {
  let rows: readonly QueueRow[] = [];
  let pageOpen = false;
  let chartLoading = false;
  let loaded = false;
  let timer: unknown = null;
  let inFlight = false;

  const schedule = () => {
    if (timer !== null || !pageOpen || rows.length === 0) return;
    timer = clock.setTimeout(tick, intervalMs);
  };

  const load = async () => {
    if (inFlight) return;
    inFlight = true;
    try {
      const samples = await callbacks.fetch();
      if (!pageOpen) return;
      rows = loaded ? mergeQueues(rows, samples, clock.label()) : replaceQueues(samples, clock.label());
      loaded = true;
    } catch (error) {
      if (!pageOpen) return;
      rows = [];
      callbacks.onError(error instanceof Error ? error.message : String(error));
    } finally {
      inFlight = false;
    }
    callbacks.onRows(rows);
  };

  async function tick() {
    timer = null;
    if (!pageOpen || rows.length === 0) return;
    if (shouldPoll({ rows, pageOpen, chartLoading })) await load();
    schedule();
  }

  return {
    async start() {
      pageOpen = true;
      loaded = false;
      await load();
      schedule();
    },
    stop() {
      pageOpen = false;
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
    },
    async refresh() {
      await load();
      schedule();
    },
    setChartLoading(loading) {
      chartLoading = loading;
    },
    get rows() {
      return rows;
    },
    get polling() {
      return timer !== null;
    },
  };
}
