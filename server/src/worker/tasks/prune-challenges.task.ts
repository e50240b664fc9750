import { pruneVerificationCodes } from '../../core/verification/verification-codes.service.ts';
import { QUEUES } from '../../queue/names.ts';
import type { JobDefinition, TaskDefinition } from '../job.ts';

/**
 * Expired captchas and slider challenges, and verification codes past the day their send limits
 * look back on, are deleted so these tables stay small.
 */
export const pruneChallenges: JobDefinition = {
  queue: QUEUES.system,
  name: 'system.prune-challenges',
  async handle(core) {
    const removed = {
      captchas: await core.captcha.prune(),
      sliders: await core.slider.prune(),
      codes: await pruneVerificationCodes(core.database),
    };
    if (removed.captchas + removed.sliders + removed.codes > 0) {
      core.logger.debug(removed, 'pruned expired challenges');
    }
  },
};

export const pruneChallengesTask: TaskDefinition = {
  id: 'system.prune-challenges',
  cron: '23 * * * *',
  job: pruneChallenges,
};
