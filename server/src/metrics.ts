import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { JOB_STATES, type QueueBackend } from './queue/queue.ts';

/**
 * Prometheus metrics of one process. Queue depth is read from the backend when scraped, so it
 * is the cluster-wide figure whichever process answers; job counters are this process's own.
 */
export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  jobsProcessed: Counter<'queue' | 'name'>;
  jobsFailed: Counter<'queue' | 'name' | 'outcome'>;
}

export function createMetrics(queue: QueueBackend, queueNames: readonly string[]): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ app: 'herald' });
  collectDefaultMetrics({ register: registry, prefix: 'herald_' });
  const httpDuration = new Histogram({
    name: 'herald_http_request_duration_seconds',
    help: 'HTTP request latency by route and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const jobsProcessed = new Counter({
    name: 'herald_jobs_processed_total',
    help: 'Jobs completed by this process',
    labelNames: ['queue', 'name'] as const,
    registers: [registry],
  });
  const jobsFailed = new Counter({
    name: 'herald_jobs_failed_total',
    help: 'Job runs that failed in this process; outcome is retrying or dead',
    labelNames: ['queue', 'name', 'outcome'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'herald_queue_jobs',
    help: 'Jobs in each queue by state',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      for (const name of queueNames) {
        const counts = await queue.counts(name);
        for (const state of JOB_STATES) this.set({ queue: name, state }, counts[state]);
      }
    },
  });
  queue.onEvent((event) => {
    if (event.type === 'completed') jobsProcessed.inc({ queue: event.queue, name: event.name });
    else jobsFailed.inc({ queue: event.queue, name: event.name, outcome: event.type });
  });
  return { registry, httpDuration, jobsProcessed, jobsFailed };
}
