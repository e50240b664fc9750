/**
 * The queue monitor's rules (console-spec §4 "Queue monitor") as pure functions, so the polling
 * screen stays a thin caller and the rules can be tested without a browser: the first load
 * replaces the list, later polls merge by apiUserName and domain, and each row keeps a rolling
 * chart of at most 10 points (the oldest dropped when more than 9 exist).
 */
export const QUEUE_POLL_MS = 5000;
export const MAX_CHART_POINTS = 10;

export interface QueueCounters {
  in: number;
  process: number;
  out: number;
}

/** One queue as the queue call returns it. */
export interface QueueSample extends QueueCounters {
  apiUserName: string;
  domain: string;
  categoryId: number | string;
}

export interface ChartPoint extends QueueCounters {
  time: string;
}

export interface QueueRow extends QueueSample {
  chart: readonly ChartPoint[];
}

export interface CategoryDomains {
  categoryId: number | string;
  /** The category's domains joined by commas. */
  domains: string;
}

const rowKey = (row: Pick<QueueSample, 'apiUserName' | 'domain'>) => `${row.apiUserName}\u0000${row.domain}`;

function point(sample: QueueSample, time: string): ChartPoint {
  return { time, in: sample.in, process: sample.process, out: sample.out };
}

/** First load: the samples become the list, each with a one-point chart. */
export function replaceQueues(samples: readonly QueueSample[], time: string): QueueRow[] {
  return samples.map((sample) => ({ ...sample, chart: [point(sample, time)] }));
}

/**
 * A later poll: the samples are the new list; a queue seen before keeps its chart, with the
 * oldest point dropped once it holds more than 9, and gets the new point appended.
 */
export function mergeQueues(
  previous: readonly QueueRow[],
  samples: readonly QueueSample[],
  time: string,
): QueueRow[] {
  const known = new Map(previous.map((row) => [rowKey(row), row]));
  return samples.map((sample) => {
    const chart = known.get(rowKey(sample))?.chart ?? [];
    const kept =
      chart.length > MAX_CHART_POINTS - 1 ? chart.slice(chart.length - (MAX_CHART_POINTS - 1)) : chart;
    return { ...sample, chart: [...kept, point(sample, time)] };
  });
}

/** Each category with the domains of its queues, in first-seen order. */
export function categoryDomains(rows: readonly QueueSample[]): CategoryDomains[] {
  const byCategory = new Map<string, { categoryId: number | string; domains: string[] }>();
  for (const row of rows) {
    const key = String(row.categoryId);
    const entry = byCategory.get(key) ?? { categoryId: row.categoryId, domains: [] };
    if (!entry.domains.includes(row.domain)) entry.domains.push(row.domain);
    byCategory.set(key, entry);
  }
  return [...byCategory.values()].map((entry) => ({
    categoryId: entry.categoryId,
    domains: entry.domains.join(','),
  }));
}

/** Polling stops on an empty list or a closed page and skips a beat while a chart loads. */
export function shouldPoll(state: {
  rows: readonly unknown[];
  pageOpen: boolean;
  chartLoading: boolean;
}): boolean {
  return state.pageOpen && state.rows.length > 0 && !state.chartLoading;
}
