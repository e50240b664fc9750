import type { Core } from '../compose.ts';
import type { QueueName } from '../queue/names.ts';

/** A kind of background job: which queue carries it and the core call it makes. */
export interface JobDefinition<P = unknown> {
  queue: QueueName;
  name: string;
  handle(core: Core, payload: P, signal: AbortSignal): Promise<void>;
}

/** A periodic task: a job enqueued on a cron pattern, once per tick across the cluster. */
export interface TaskDefinition {
  id: string;
  cron: string;
  job: JobDefinition;
  payload?: unknown;
}
