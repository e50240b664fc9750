import { create } from 'zustand';
import {
  type CategoryDomains,
  categoryDomains,
  mergeQueues,
  type QueueRow,
  type QueueSample,
  replaceQueues,
} from './queue-status-merge.ts';

/**
 * Queue monitor state (console-spec §3): the rows with their rolling charts, the query params,
 * a changed flag (params edited since the last load, so the next load replaces instead of
 * merging) and the categories with their domains.
 */
export type QueueParams = Record<string, string | number | undefined>;

export interface QueueStatusState {
  rows: readonly QueueRow[];
  params: QueueParams;
  changed: boolean;
  categoryIdDomainsList: readonly CategoryDomains[];
  setParams(params: QueueParams): void;
  /** Applies one answer of the queue call: replaces on the first load or after a change, else merges. */
  receive(samples: readonly QueueSample[], time: string): void;
  /** The queue call failed: the list empties, which also stops polling (§8). */
  fail(): void;
}

export const useQueueStatusStore = create<QueueStatusState>()((set, get) => ({
  rows: [],
  params: {},
  changed: true,
  categoryIdDomainsList: [],
  setParams: (params) => set({ params, changed: true }),
  receive: (samples, time) => {
    const { rows, changed } = get();
    const next =
      changed || rows.length === 0 ? replaceQueues(samples, time) : mergeQueues(rows, samples, time);
    set({ rows: next, changed: false, categoryIdDomainsList: categoryDomains(next) });
  },
  fail: () => set({ rows: [], categoryIdDomainsList: [] }),
}));
