import type { JobDefinition, TaskDefinition } from './job.ts';
import { forgetNodes, forgetNodesTask } from './tasks/forget-nodes.task.ts';
import { pruneJobs, pruneJobsTask } from './tasks/prune-jobs.task.ts';

/**
 * Every job and periodic task Herald runs, in one place: a worker process serves exactly these.
 * A new kind of background work is a file under jobs/ or tasks/ and one line here.
 */
export const JOBS: readonly JobDefinition[] = [pruneJobs, forgetNodes];

export const TASKS: readonly TaskDefinition[] = [pruneJobsTask, forgetNodesTask];
