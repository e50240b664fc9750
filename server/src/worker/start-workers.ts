import type { Core } from '../compose.ts';
import { PermanentJobError, type Worker } from '../queue/queue.ts';
import type { JobDefinition } from './job.ts';
import { JOBS, LOOPS, TASKS } from './registry.ts';

export interface Workers {
  close(timeoutMs: number): Promise<void>;
}

/** The worker role: schedules the periodic tasks and works every queue that has jobs. */
export async function startWorkers(core: Core): Promise<Workers> {
  for (const task of TASKS) {
    await core.queue.schedule({
      id: task.id,
      cron: task.cron,
      queue: task.job.queue,
      name: task.job.name,
      payload: task.payload,
    });
  }
  const byQueue = new Map<string, Map<string, JobDefinition>>();
  for (const job of JOBS) {
    const names = byQueue.get(job.queue) ?? new Map<string, JobDefinition>();
    names.set(job.name, job);
    byQueue.set(job.queue, names);
  }
  const log = core.logger.child({ role: 'worker' });
  const workers: Worker[] = [];
  for (const [queue, names] of byQueue) {
    workers.push(
      core.queue.work(
        queue,
        async (job, signal) => {
          const definition = names.get(job.name);
          if (!definition)
            throw new PermanentJobError(`no handler for job "${job.name}" on queue "${queue}"`);
          await definition.handle(core, job.payload, signal);
        },
        { concurrency: core.config.workerConcurrency },
      ),
    );
  }
  core.queue.onEvent((event) => {
    if (event.type === 'completed') log.debug(event, 'job completed');
    else log.warn(event, event.type === 'dead' ? 'job dead-lettered' : 'job failed, will retry');
  });
  const loops = LOOPS.map((loop) => loop.start(core));
  log.info(
    { queues: [...byQueue.keys()], tasks: TASKS.map((t) => t.id), loops: LOOPS.map((l) => l.name) },
    'workers started',
  );
  return {
    async close(timeoutMs) {
      await Promise.all([
        ...workers.map((worker) => worker.close({ timeoutMs })),
        ...loops.map((loop) => loop.close(timeoutMs)),
      ]);
    },
  };
}
