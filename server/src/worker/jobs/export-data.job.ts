import { EXPORT_JOB, type ExportJobPayload } from '../../core/exports/exports.service.ts';
import { QUEUES } from '../../queue/names.ts';
import type { JobDefinition } from '../job.ts';

/**
 * One offline export: the core writes the file and records success or failure on the export
 * itself, so the job only throws when the worker shut down mid-run (the queue then hands it on).
 */
export const exportData: JobDefinition<ExportJobPayload> = {
  queue: QUEUES.system,
  name: EXPORT_JOB,
  async handle(core, payload, signal) {
    await core.exports.run(payload.id, signal);
  },
};
