import { Queue as BullQueue } from 'bullmq';
import { Redis } from 'ioredis';
import type {
  DeadJob,
  EnqueueOptions,
  EnqueueResult,
  JobCounts,
  JobHandler,
  JobSpec,
  QueueBackend,
  QueueEvent,
  ScheduledTask,
  Worker,
  WorkerOptions,
} from '../queue.ts';
import { attemptOf, jobOptions, payloadOf, type ScheduledPayload, templateOptions } from './job-options.ts';
import { RedisWorker } from './redis-worker.ts';

export interface RedisQueueOptions {
  url: string;
  /** BullMQ key prefix; default 'herald'. */
  prefix?: string;
  /** BullMQ lock duration: how long a dead worker's job stays locked; default 30 s. */
  leaseMs?: number;
  /** Background errors (connection trouble, lost locks) that no caller is waiting on. */
  onError?: (error: unknown) => void;
}

const CONNECTION_CLOSE_TIMEOUT_MS = 2_000;

/**
 * The BullMQ backend, for deployments that run several server processes against one Redis.
 * One BullMQ Queue per queue name (created on first use) shares a producer connection whose
 * commands fail after ioredis' retries, so an enqueue during an outage errors instead of
 * hanging; workers share a second connection with unlimited retries, as BullMQ requires.
 * Periodic tasks are BullMQ job schedulers, which BullMQ fires once per tick cluster-wide;
 * since unschedule() names no queue, a hash remembers which queue each schedule lives in.
 */
export class RedisQueue implements QueueBackend {
  readonly kind = 'redis' as const;
  readonly prefix: string;
  readonly leaseMs: number;
  private readonly url: string;
  private readonly onError: (error: unknown) => void;
  private readonly producer: Redis;
  private consumer: Redis | undefined;
  private readonly queues = new Map<string, BullQueue<unknown>>();
  private readonly workers = new Set<RedisWorker>();
  private readonly listeners: ((event: QueueEvent) => void)[] = [];
  private closing: Promise<void> | undefined;

  constructor(options: RedisQueueOptions) {
    this.url = options.url;
    this.prefix = options.prefix ?? 'herald';
    this.leaseMs = options.leaseMs ?? 30_000;
    this.onError = options.onError ?? (() => {});
    this.producer = this.connect({});
  }

  async enqueue<P>(
    queue: string,
    name: string,
    payload: P,
    options?: EnqueueOptions,
  ): Promise<EnqueueResult> {
    const opts = jobOptions(options);
    const job = await this.queueFor(queue).add(name, payload ?? null, opts);
    return { id: job.id ?? opts.jobId, deduplicated: job.id !== opts.jobId };
  }

  async enqueueBulk<P>(queue: string, specs: JobSpec<P>[]): Promise<EnqueueResult[]> {
    if (specs.length === 0) return [];
    const entries = specs.map(({ name, payload, options }) => ({
      name,
      data: payload ?? null,
      opts: jobOptions(options),
    }));
    const jobs = await this.queueFor(queue).addBulk(entries);
    return jobs.map((job, index) => {
      const chosen = entries[index]!.opts.jobId;
      return { id: job.id ?? chosen, deduplicated: job.id !== chosen };
    });
  }

  work(queue: string, handler: JobHandler, options: WorkerOptions = {}): Worker {
    if (this.closing) throw new Error('queue is closed');
    this.consumer ??= this.connect({ maxRetriesPerRequest: null });
    const worker = new RedisWorker({
      queue,
      prefix: this.prefix,
      leaseMs: this.leaseMs,
      concurrency: options.concurrency ?? 1,
      connection: this.consumer,
      handler,
      emit: (event) => this.emit(event),
      onError: this.onError,
    });
    this.workers.add(worker);
    return {
      close: async (closeOptions) => {
        await worker.close(closeOptions?.timeoutMs);
        this.workers.delete(worker);
      },
    };
  }

  pause(queue: string): Promise<void> {
    return this.queueFor(queue).pause();
  }

  resume(queue: string): Promise<void> {
    return this.queueFor(queue).resume();
  }

  isPaused(queue: string): Promise<boolean> {
    return this.queueFor(queue).isPaused();
  }

  async counts(queue: string): Promise<JobCounts> {
    const counts = await this.queueFor(queue).getJobCounts(
      'waiting',
      'prioritized',
      'waiting-children',
      'delayed',
      'active',
      'completed',
      'failed',
    );
    const n = (state: string) => counts[state] ?? 0;
    return {
      waiting: n('waiting') + n('prioritized') + n('waiting-children'),
      delayed: n('delayed'),
      active: n('active'),
      completed: n('completed'),
      dead: n('failed'),
    };
  }

  async deadJobs(queue: string, limit = 100): Promise<DeadJob[]> {
    if (limit <= 0) return [];
    const jobs = await this.queueFor(queue).getFailed(0, limit - 1);
    return jobs.map((job) => ({
      id: job.id ?? '',
      name: job.name,
      payload: payloadOf(job),
      attempts: attemptOf(job),
      error: job.failedReason || null,
      failedAt: job.finishedOn ?? null,
    }));
  }

  async retryDead(queue: string, id: string): Promise<boolean> {
    const job = await this.queueFor(queue).getJob(id);
    if (!job) return false;
    try {
      await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
      return true;
    } catch (error) {
      if ((await job.getState()) !== 'failed') return false;
      throw error;
    }
  }

  async schedule(task: ScheduledTask): Promise<void> {
    const previous = await this.producer.hget(this.schedulesKey, task.id);
    await this.producer.hset(this.schedulesKey, task.id, task.queue);
    if (previous !== null && previous !== task.queue)
      await this.queueFor(previous).removeJobScheduler(task.id);
    const data: ScheduledPayload = { payload: task.payload ?? null };
    await this.queueFor(task.queue).upsertJobScheduler(
      task.id,
      { pattern: task.cron, tz: task.timezone ?? 'UTC' },
      { name: task.name, data, opts: templateOptions() },
    );
  }

  async unschedule(id: string): Promise<void> {
    const queue = await this.producer.hget(this.schedulesKey, id);
    if (queue === null) return;
    await this.queueFor(queue).removeJobScheduler(id);
    await this.producer.hdel(this.schedulesKey, id);
  }

  onEvent(listener: (event: QueueEvent) => void): void {
    this.listeners.push(listener);
  }

  close(options?: { timeoutMs?: number }): Promise<void> {
    this.closing ??= this.shutdown(options?.timeoutMs);
    return this.closing;
  }

  private async shutdown(timeoutMs: number | undefined): Promise<void> {
    await Promise.all([...this.workers].map((worker) => worker.close(timeoutMs)));
    this.workers.clear();
    await Promise.allSettled([...this.queues.values()].map((queue) => queue.close()));
    this.queues.clear();
    await Promise.all([this.producer, this.consumer].map((client) => client && disconnect(client)));
  }

  private get schedulesKey(): string {
    return `${this.prefix}:herald-schedules`;
  }

  private queueFor(name: string): BullQueue<unknown> {
    if (this.closing) throw new Error('queue is closed');
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new BullQueue<unknown>(name, { connection: this.producer, prefix: this.prefix });
      queue.on('error', this.onError);
      this.queues.set(name, queue);
    }
    return queue;
  }

  private connect(options: { maxRetriesPerRequest?: null }): Redis {
    const client = new Redis(this.url, options);
    client.on('error', this.onError);
    return client;
  }

  private emit(event: QueueEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.onError(error);
      }
    }
  }
}

async function disconnect(client: Redis): Promise<void> {
  if (client.status === 'ready') {
    const quit = client.quit().then(
      () => true,
      () => false,
    );
    const timeout = new Promise<boolean>((resolve) =>
      setTimeout(resolve, CONNECTION_CLOSE_TIMEOUT_MS, false).unref(),
    );
    if (await Promise.race([quit, timeout])) return;
  }
  client.disconnect();
}
