import { parseMobile } from '@herald/shared';
import type { ChannelPipeline } from '../../channel/contract.ts';
import { runSteps, type Step } from '../../channel/steps.ts';
import type { Logger } from '../../logger.ts';
import type { CarrierPool } from '../carrier-pool.ts';
import {
  type CarrierConfig,
  carriesMms,
  placesCalls,
  type SenderRules,
  type SmsInterception,
  type SmsSubmission,
  senderFor,
} from '../ports.ts';
import type { ClaimedSms, SmsOutcome, SmsStore } from '../store/sms-store.ts';
import type { OutcomeBatch } from './outcome-batch.ts';

/** What one message carries through its steps. */
interface SmsState {
  item: ClaimedSms;
  owner: string;
  candidates: CarrierConfig[];
}

/** How long a message may wait for a carrier to take it before it fails (590). */
export const SUBMIT_LIFETIME_MS = 24 * 60 * 60_000;
const RETRY_DELAYS_MS = [10_000, 30_000, 60_000, 2 * 60_000, 5 * 60_000, 10 * 60_000, 30 * 60_000];

/** The kind of carrier a SendCloud msgType needs. */
export function carrierKind(msgType: number): string {
  if (msgType === 1) return 'mms';
  if (msgType === 3) return 'voice';
  return 'sms';
}

/**
 * What a voice call reads out: the code, in English when the text it stands for has no Chinese
 * outside its 【signature】 (an English template), else in Mandarin. Neither templates nor
 * accounts name a language, and the text is what the account wrote for its users to hear.
 */
function voiceOf(item: ClaimedSms): SmsSubmission['voice'] {
  if (carrierKind(item.msgType) !== 'voice' || !item.voiceCode) return undefined;
  const words = item.content.replace(/【[^】]*】/g, '');
  return { code: item.voiceCode, language: /\p{Script=Han}/u.test(words) ? 'zh-cn' : 'en' };
}

/**
 * The SMS channel's steps for one claimed message: **intercept** (interception lists and the
 * keyword filter, looked up for the whole batch in `prepare`) → **route** (the carriers whose routes take the
 * number, without those already tried) → **submit** (to the first of them; a temporary refusal
 * fails over to the next at once, and when every carrier refused for now the message waits and
 * tries them all again). A permanent refusal fails the message (5xx); a message no carrier took
 * within a day fails with the last reason.
 */
export class SmsPipeline implements ChannelPipeline<ClaimedSms> {
  private readonly steps: readonly Step<SmsState, SmsOutcome>[];
  private readonly pool: CarrierPool;
  private readonly interception: SmsInterception;
  /** Verdicts of the last prepared batches, taken by the intercept step. */
  private readonly stopped = new Map<number, { statusCode: number; reason: string }>();
  private readonly outcomes: OutcomeBatch<SmsOutcome>;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly senders: SenderRules | undefined;

  constructor(
    pool: CarrierPool,
    interception: SmsInterception,
    outcomes: OutcomeBatch<SmsOutcome>,
    logger: Logger,
    now: () => number = Date.now,
    senders?: SenderRules,
  ) {
    this.senders = senders;
    this.pool = pool;
    this.interception = interception;
    this.outcomes = outcomes;
    this.logger = logger;
    this.now = now;
    this.steps = [
      { name: 'intercept', run: (state) => this.intercept(state) },
      { name: 'route', run: (state) => this.route(state) },
      { name: 'submit', run: (state) => this.submit(state) },
    ];
  }

  async prepare(batch: ClaimedSms[]): Promise<void> {
    await this.pool.refresh(this.now());
    const stopped = await this.interception.check(
      batch.map((m) => ({ id: m.id, accountId: m.accountId, phone: m.phone, content: m.content })),
    );
    for (const [id, verdict] of stopped) this.stopped.set(id, verdict);
  }

  async process(item: ClaimedSms, owner: string): Promise<void> {
    try {
      const { outcome } = await runSteps(this.steps, { item, owner, candidates: [] });
      this.outcomes.add(outcome);
    } catch (error) {
      // Left to its lease: the claim takes it up again once the lease runs out.
      this.logger.error({ err: error, smsId: item.smsId }, 'SMS step failed');
    }
  }

  flush(): Promise<void> {
    return this.outcomes.flush();
  }

  /** A number on an interception list, or content with a filtered keyword: a processing failure (4xx). */
  private intercept({ item, owner }: SmsState): SmsOutcome | undefined {
    const verdict = this.stopped.get(item.id);
    if (!verdict) return undefined;
    this.stopped.delete(item.id);
    return {
      kind: 'failed',
      id: item.id,
      accountId: item.accountId,
      owner,
      statusCode: verdict.statusCode,
      reason: verdict.reason,
      carrierId: null,
      at: this.now(),
    };
  }

  private route(state: SmsState): SmsOutcome | undefined {
    const { item } = state;
    const national = parseMobile(item.phone, undefined)?.national ?? item.phone.replace(/^\+/, '');
    const kind = carrierKind(item.msgType);
    if (kind === 'mms' && !item.mms) return this.fail(state, 'the MMS content is missing');
    // An MMS goes only to a carrier whose protocol carries one (never as text), and such a
    // carrier takes nothing else; a route of only the other protocol fails the message.
    // A voice code likewise goes only to a carrier that places calls (a SIP trunk), never as text.
    const fits = (c: CarrierConfig) =>
      carriesMms(c.url) === (kind === 'mms') && placesCalls(c.url) === (kind === 'voice');
    const routed = this.pool.candidates(item.country, national, kind, []);
    if (routed.length > 0 && !routed.some(fits)) {
      const names = routed.map((c) => c.name).join(', ');
      return this.fail(state, `${names}: cannot carry ${kind === 'mms' ? 'MMS' : kind}`);
    }
    state.candidates = this.pool.candidates(item.country, national, kind, item.triedCarriers).filter(fits);
    if (state.candidates.length > 0) return undefined;
    const everRouted = routed.length > 0;
    // Every carrier of the route refused for now: start over after a pause. No route at all: the
    // operator has yet to connect one, so the message waits for that, within its lifetime.
    return this.later(
      state,
      everRouted ? 'every carrier refused for now' : `no carrier route for ${item.country}`,
      [],
    );
  }

  private async submit(state: SmsState): Promise<SmsOutcome> {
    const { item, owner } = state;
    const tried = [...item.triedCarriers];
    const countrySender = item.country === 'CN' ? undefined : await this.senders?.of(item.country);
    let lastReason = '';
    for (const carrier of state.candidates) {
      tried.push(carrier.id);
      let result: Awaited<ReturnType<ReturnType<CarrierPool['session']>['submit']>>;
      try {
        result = await this.pool.session(carrier).submit({
          to: item.phone.replace(/^\+/, ''),
          from: senderFor(carrier, item.accountId, countrySender),
          text: item.content,
          bulk: item.lane === 1,
          mms: item.mms,
          voice: voiceOf(item),
        });
      } catch (error) {
        result = { kind: 'refused', permanent: false, reason: (error as Error).message };
      }
      const at = this.now();
      if (result.kind === 'accepted') {
        return {
          kind: 'submitted',
          id: item.id,
          accountId: item.accountId,
          owner,
          carrierId: carrier.id,
          carrierIds: result.messageIds,
          at,
        };
      }
      lastReason = `${carrier.name}: ${result.reason}`;
      if (result.permanent) {
        return {
          kind: 'failed',
          id: item.id,
          accountId: item.accountId,
          owner,
          statusCode: 590,
          reason: lastReason,
          carrierId: carrier.id,
          at,
        };
      }
      this.logger.warn(
        { smsId: item.smsId, carrier: carrier.name, reason: result.reason },
        'carrier refused for now; failing over',
      );
    }
    return this.later(state, lastReason, []);
  }

  /** The end of a message no carrier took (590). */
  private fail({ item, owner }: SmsState, reason: string): SmsOutcome {
    return {
      kind: 'failed',
      id: item.id,
      accountId: item.accountId,
      owner,
      statusCode: 590,
      reason,
      carrierId: null,
      at: this.now(),
    };
  }

  /** The next try after a pause, or the end when the message has waited a day. */
  private later(state: SmsState, reason: string, triedCarriers: number[]): SmsOutcome {
    const { item, owner } = state;
    const at = this.now();
    if (at - item.requestedAt >= SUBMIT_LIFETIME_MS) return this.fail(state, reason);
    const delay = RETRY_DELAYS_MS[Math.min(item.attempts, RETRY_DELAYS_MS.length - 1)] as number;
    return { kind: 'retry', id: item.id, owner, dueAt: at + delay, triedCarriers, reason, at };
  }
}

export type { SmsStore };
