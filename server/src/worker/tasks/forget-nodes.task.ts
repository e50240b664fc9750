import { QUEUES } from '../../queue/names.ts';
import type { JobDefinition, TaskDefinition } from '../job.ts';

/** Processes that stopped or vanished more than a day ago leave the node list. */
export const forgetNodes: JobDefinition = {
  queue: QUEUES.system,
  name: 'system.forget-nodes',
  async handle(core) {
    await core.nodes.forgetOld();
  },
};

export const forgetNodesTask: TaskDefinition = {
  id: 'system.forget-nodes',
  cron: '*/10 * * * *',
  job: forgetNodes,
};
