import type { JobDefinition, TaskDefinition } from './job.ts';
import { deliverSystemMail } from './jobs/deliver-system-mail.job.ts';
import { deliverSystemSms } from './jobs/deliver-system-sms.job.ts';
import { forgetNodes, forgetNodesTask } from './tasks/forget-nodes.task.ts';
import { pruneChallenges, pruneChallengesTask } from './tasks/prune-challenges.task.ts';
import { pruneJobs, pruneJobsTask } from './tasks/prune-jobs.task.ts';
import { pruneRateLimits, pruneRateLimitsTask } from './tasks/prune-rate-limits.task.ts';

/**
 * Every job and periodic task Herald runs, in one place: a worker process serves exactly these.
 * A new kind of background work is a file under jobs/ or tasks/ and one line here.
 */
export const JOBS: readonly JobDefinition[] = [
  pruneJobs,
  forgetNodes,
  pruneRateLimits,
  pruneChallenges,
  deliverSystemMail,
  deliverSystemSms,
];

export const TASKS: readonly TaskDefinition[] = [
  pruneJobsTask,
  forgetNodesTask,
  pruneRateLimitsTask,
  pruneChallengesTask,
];
