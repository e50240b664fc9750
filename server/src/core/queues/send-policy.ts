import type { PolicyMessage, SendPolicy } from '../../mta/ports.ts';
import { ACCOUNT_HOLD_REASONS, type AccountStates } from '../accounts/account-states.ts';
import { noDisturbUntil } from '../sender-configs/no-disturb.ts';
import {
  fromPrefixFor,
  type SenderConfigsService,
  tlsRequired,
} from '../sender-configs/sender-configs.service.ts';
import { pauseCovers, pauseEnd, type QueuesService } from './queues.service.ts';

/** Reasons a held recipient carries (message_recipients.reason, the send log). */
export const HOLD_REASONS = {
  paused: 'queue paused',
  noDisturb: 'do not disturb',
  ...ACCOUNT_HOLD_REASONS,
} as const;

/** How often mail held for the account's state looks again (resuming releases it at once). */
const ACCOUNT_RECHECK_MS = 60_000;

/**
 * The account rules the delivery pipeline applies (SendPolicy of mta/pipeline/policies.ts), read
 * from per-account snapshots cached for a few seconds so the hot path costs a map lookup: a
 * suspended queue holds every message it names until its recover time (or its automatic
 * deletion); a do-not-disturb window holds batch mail until the window ends. When both apply the
 * later release wins.
 */
export class AccountSendPolicy implements SendPolicy {
  private readonly senderConfigs: SenderConfigsService;
  private readonly queues: QueuesService;
  private readonly states: AccountStates | undefined;

  constructor(senderConfigs: SenderConfigsService, queues: QueuesService, states?: AccountStates) {
    this.senderConfigs = senderConfigs;
    this.queues = queues;
    this.states = states;
  }

  async holdUntil(message: PolicyMessage, now: number): Promise<{ until: number; reason: string } | null> {
    // A suspended or frozen account's queued mail waits, whatever else applies, until it is resumed.
    const state = this.states ? await this.states.current(message.accountId) : 'active';
    if (state !== 'active') return { until: now + ACCOUNT_RECHECK_MS, reason: HOLD_REASONS[state] };
    const [pauses, config] = await Promise.all([
      this.queues.activePauses({ accountId: message.accountId }),
      message.emailType === 'batch' ? this.senderConfigs.snapshot({ accountId: message.accountId }) : null,
    ]);
    let hold: { until: number; reason: string } | null = null;
    const domain = message.senderDomain.toLowerCase();
    for (const p of pauses) {
      if (p.startAt > now || pauseEnd(p) <= now || !pauseCovers(p, message.apiUserId, domain)) continue;
      if (p.labelId !== null && p.labelId !== message.labelId) continue;
      const until = pauseEnd(p);
      if (!hold || until > hold.until) hold = { until, reason: HOLD_REASONS.paused };
    }
    if (config && config.noDisturb.length > 0) {
      const until = noDisturbUntil(config.noDisturb, now, config.timeZone);
      if (until !== null && (!hold || until > hold.until)) hold = { until, reason: HOLD_REASONS.noDisturb };
    }
    return hold;
  }

  async headerRules(accountId: number, recipientDomain?: string) {
    const snapshot = await this.senderConfigs.snapshot({ accountId });
    return {
      fixedFromPrefix: fromPrefixFor(snapshot, recipientDomain),
      mailFromDomain: snapshot.mailFromDomain,
      adMark: snapshot.adMark,
    };
  }

  async requiresTls(accountId: number, recipientDomain: string): Promise<boolean> {
    return tlsRequired(await this.senderConfigs.snapshot({ accountId }), recipientDomain);
  }

  async relayFor(accountId: number) {
    return (await this.senderConfigs.snapshot({ accountId })).relay;
  }
}
