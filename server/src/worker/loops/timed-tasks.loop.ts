import { taskRunnerLoop } from './task-runner.ts';

/** Makes timed tasks' requests when due (core.timedTasks) with the shared task runner. */
export const timedTasksLoop = taskRunnerLoop('timed-tasks', (core) => core.timedTasks);
