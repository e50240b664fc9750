import {
  AppError,
  ERRORS,
  type ErrorCode,
  formatMessage,
  isAppError,
  type Lang,
  renderSmsTemplate,
  SMS_MSG_TYPES,
  SMS_TASK_MAX_LISTS,
  SMS_TASK_RESEND_DAYS,
  type SmsTaskPreview,
  type SmsTaskQuery,
  type SmsTaskStatus,
  type SmsTasksPage,
  type SmsTaskValues,
  type SmsTaskView,
  signedSmsText,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import type { AccountStates } from '../accounts/account-states.ts';
import { findPlan } from '../api-users/api-users.repo.ts';
import type { Caller } from '../context.ts';
import { markListUsed } from '../sms-contacts/sms-contacts.repo.ts';
import type { SmsSendService, SmsSendSources } from '../sms-send/sms-send.service.ts';
import * as repo from './sms-tasks.repo.ts';

export interface SmsTasksDeps {
  database: Database;
  send: Pick<SmsSendService, 'sendTaskChunk' | 'sendTaskCopies'>;
  sources: SmsSendSources;
  states: AccountStates;
  logger: Logger;
  now?: () => number;
  /** Numbers per written chunk: small enough that an API call never waits long behind one. */
  chunkSize?: number;
  /**
   * Most of a task's SMS waiting for the SMS worker: the task writes no further ahead of its
   * carriers, so a 100,000-number task never fills the queue (and the database) at once.
   */
  maxBacklog?: number;
  leaseMs?: number;
}

export interface SmsTaskCreate extends SmsTaskValues {
  /** A signature of the account's own in place of the template's (the SMS API's senderName). */
  signName?: string | undefined;
}

const DAY = 86_400_000;
const BACKLOG_PAUSE_MS = 200;
const SAMPLE_SIZE = 3;

/**
 * SMS tasks (issue 17): a passed SMS template sent to the members of up to 5 contact lists, now
 * or at a later time; a paid account's function.
 *
 * A task is run by whichever worker claims it first once its time has come (`runDue`): its
 * numbers are read list by list in number order, a number already in an earlier list left out,
 * and written chunk by chunk through the send path's own checks (SmsSendService.sendTaskChunk)
 * into the task lane, each chunk with the task's cursor in one transaction. A task is finished
 * once every message is written and none is still with Herald (`finishSent`). A task that ended
 * with failed messages may send them again, once, within 7 days: the resend is a task of its own
 * whose messages are the failed ones' texts.
 */
export class SmsTasksService {
  private readonly database: Database;
  private readonly deps: SmsTasksDeps;
  private readonly now: () => number;
  private readonly chunkSize: number;
  private readonly leaseMs: number;
  private readonly maxBacklog: number;
  private waker: (() => void) | undefined;

  constructor(deps: SmsTasksDeps) {
    this.deps = deps;
    this.database = deps.database;
    this.now = deps.now ?? Date.now;
    this.chunkSize = deps.chunkSize ?? 250;
    this.leaseMs = deps.leaseMs ?? 60_000;
    this.maxBacklog = deps.maxBacklog ?? 5000;
  }

  /** The runner of this process, woken when a task that may start now is created here. */
  onStartable(wake: () => void): void {
    this.waker = wake;
  }

  async create(
    caller: Caller,
    input: SmsTaskCreate,
    source: 'console' | 'api',
    lang: Lang,
  ): Promise<SmsTaskView> {
    const { accountId } = caller;
    if ((await findPlan(this.database, accountId)) !== 'paid') throw new AppError('SMS_TASK_PAID_ONLY');
    await this.deps.states.requireSending(caller);
    const template = await this.deps.sources.template({ accountId }, input.templateId);
    if (template.kind !== 'sms') throw new AppError('SMS_TASK_TEMPLATE_KIND');
    const msgType = template.region === 'international' ? SMS_MSG_TYPES.international : SMS_MSG_TYPES.sms;
    await this.deps.sources.requireAllowed({ accountId }, msgType);
    const signName = input.signName
      ? await this.deps.sources.signName({ accountId }, { name: input.signName }, template.region)
      : null;
    if (input.labelId !== undefined) await this.deps.sources.requireLabel({ accountId }, input.labelId);
    await this.checkLists(accountId, input.contactListIds);

    const now = this.now();
    if (input.scheduled && (input.sendAt ?? 0) <= now) throw new AppError('SMS_TASK_TIME_PAST');
    const id = await repo.insertTask(
      this.database,
      {
        accountId,
        name: input.name,
        templateId: template.id,
        signName,
        labelId: input.labelId ?? null,
        listIds: input.contactListIds,
        sendAt: input.scheduled ? (input.sendAt as number) : now,
        scheduled: input.scheduled,
        source,
        resendOf: null,
      },
      now,
    );
    if (!input.scheduled) this.waker?.();
    return this.get(caller, id, lang);
  }

  async list({ accountId }: Caller, query: SmsTaskQuery, lang: Lang): Promise<SmsTasksPage> {
    const [{ rows, total }, plan] = await Promise.all([
      repo.listTasks(this.database, accountId, {
        name: query.name,
        status: query.status,
        offset: (query.pageNum - 1) * query.pageSize,
        limit: query.pageSize,
      }),
      findPlan(this.database, accountId),
    ]);
    return { list: await this.views(accountId, rows, lang), total, paid: plan === 'paid' };
  }

  async get({ accountId }: Caller, id: number, lang: Lang): Promise<SmsTaskView> {
    const row = await repo.findTask(this.database, accountId, id);
    if (!row) throw new AppError('SMS_TASK_NOT_FOUND');
    const [view] = await this.views(accountId, [row], lang);
    return view as SmsTaskView;
  }

  /** Only before it starts; a task already sending goes on (its messages are accepted). */
  async cancel(caller: Caller, id: number, lang: Lang): Promise<SmsTaskView> {
    if (!(await repo.cancelTask(this.database, caller.accountId, id, this.now()))) {
      const row = await repo.findTask(this.database, caller.accountId, id);
      throw new AppError(row ? 'SMS_TASK_NOT_CANCELLABLE' : 'SMS_TASK_NOT_FOUND');
    }
    return this.get(caller, id, lang);
  }

  /** Sends a task's failed messages again as a new task, starting now; answers the new task. */
  async resend(caller: Caller, id: number, lang: Lang): Promise<SmsTaskView> {
    const { accountId } = caller;
    const original = await repo.findTask(this.database, accountId, id);
    if (!original) throw new AppError('SMS_TASK_NOT_FOUND');
    const failed = await repo.failedCount(this.database, original.id);
    if (!this.resendable(original, failed)) {
      throw new AppError('SMS_TASK_NOT_RESENDABLE', { days: SMS_TASK_RESEND_DAYS });
    }
    await this.deps.states.requireSending(caller);
    const now = this.now();
    const newId = await repo.insertResend(
      this.database,
      original,
      {
        accountId,
        name: original.name,
        templateId: Number(original.template_id),
        signName: original.sign_name,
        labelId: original.label_id === null ? null : Number(original.label_id),
        listIds: JSON.parse(original.list_ids) as number[],
        sendAt: now,
        scheduled: false,
        source: original.source,
        resendOf: original.id,
      },
      now,
    );
    if (newId === undefined) throw new AppError('SMS_TASK_NOT_RESENDABLE', { days: SMS_TASK_RESEND_DAYS });
    this.waker?.();
    return this.get(caller, newId, lang);
  }

  /** What the task would send: its numbers and the first members' texts. */
  async preview(
    caller: Caller,
    input: { templateId: number; contactListIds: number[]; signName?: string | undefined },
  ): Promise<SmsTaskPreview> {
    const { accountId } = caller;
    const template = await this.deps.sources.template({ accountId }, input.templateId);
    if (template.kind !== 'sms') throw new AppError('SMS_TASK_TEMPLATE_KIND');
    const lists = await this.checkLists(accountId, input.contactListIds, false);
    const signName = input.signName
      ? await this.deps.sources.signName({ accountId }, { name: input.signName }, template.region)
      : template.signName;
    const members = await repo.nextMembers(this.database, input.contactListIds, 0, '', SAMPLE_SIZE);
    return {
      memberTotal: lists.reduce((sum, list) => sum + list.memberCount, 0),
      samples: members.map((member) => ({
        phone: member.phone,
        text: signedSmsText(renderSmsTemplate(template.content, varsOf(member)), signName, template.region),
      })),
    };
  }

  /**
   * Claims one due task for `owner` and writes its messages to the end, unless `stopping()`
   * says to hand it back first. Answers whether there was a task.
   */
  async runDue(owner: string, stopping: () => boolean): Promise<boolean> {
    const task = await repo.claimTask(this.database, owner, this.now(), this.leaseMs);
    if (!task) return false;
    try {
      await this.write(task, owner, stopping);
    } catch (error) {
      if (!isAppError(error)) {
        // Left to its lease: this worker or another continues from the cursor.
        this.deps.logger.error({ err: error, taskId: task.id }, 'writing an SMS task failed');
        return true;
      }
      const now = this.now();
      await repo.updateHeld(this.database, task.id, owner, {
        status: 'failed',
        error_code: error.code,
        ended_at: now,
        updated_at: now,
        lease_owner: null,
        lease_until: null,
      });
    }
    return true;
  }

  /** Marks written tasks with nothing left with Herald finished; answers how many. */
  finishSent(): Promise<number> {
    return repo.finishSent(this.database, this.now());
  }

  private async write(task: repo.TaskRow, owner: string, stopping: () => boolean): Promise<void> {
    const accountId = Number(task.account_id);
    const listIds = JSON.parse(task.list_ids) as number[];
    const progress = {
      taskId: Number(task.id),
      owner,
      leaseUntil: 0,
      cursorList: Number(task.cursor_list),
      cursorPhone: task.cursor_phone,
      cursorMessage: Number(task.cursor_message),
      queued: Number(task.queued),
      skipped: Number(task.skipped),
      skipReasons: JSON.parse(task.skip_reasons) as Record<string, number>,
      written: false,
    };
    const fresh =
      Number(task.member_total) === 0 &&
      progress.queued + progress.skipped === 0 &&
      progress.cursorList === 0 &&
      progress.cursorPhone === '' &&
      progress.cursorMessage === 0;
    if (fresh) {
      await this.start(task, listIds, owner);
    }
    while (!stopping()) {
      progress.leaseUntil = this.now() + this.leaseMs;
      if ((await repo.backlog(this.database, progress.taskId, this.maxBacklog)) >= this.maxBacklog) {
        if (
          !(await repo.updateHeld(this.database, progress.taskId, owner, {
            lease_until: progress.leaseUntil,
          }))
        )
          return;
        await new Promise((resolve) => setTimeout(resolve, BACKLOG_PAUSE_MS));
        continue;
      }
      let result: { written: boolean; queued: number; skipped: number; skipReasons: Record<string, number> };
      if (task.resend_of !== null) {
        const copies = await repo.failedMessages(
          this.database,
          Number(task.resend_of),
          progress.cursorMessage,
          this.chunkSize,
        );
        if (copies.length === 0) break;
        progress.cursorMessage = (copies.at(-1) as { id: number }).id;
        result = await this.deps.send.sendTaskCopies({
          accountId,
          taskId: progress.taskId,
          copies,
          progress,
        });
      } else {
        if (progress.cursorList >= listIds.length) break;
        const members = await repo.nextMembers(
          this.database,
          listIds,
          progress.cursorList,
          progress.cursorPhone,
          this.chunkSize,
        );
        if (members.length === 0) {
          progress.cursorList += 1;
          progress.cursorPhone = '';
          const held = await repo.updateHeld(this.database, progress.taskId, owner, {
            cursor_list: progress.cursorList,
            cursor_phone: '',
            lease_until: progress.leaseUntil,
          });
          if (!held) return;
          continue;
        }
        progress.cursorPhone = (members.at(-1) as repo.MemberRow).phone;
        result = await this.deps.send.sendTaskChunk({
          accountId,
          taskId: progress.taskId,
          templateId: Number(task.template_id),
          signName: task.sign_name,
          labelId: task.label_id === null ? null : Number(task.label_id),
          recipients: members.map((member) => ({ phone: member.phone, vars: varsOf(member) })),
          progress,
        });
      }
      if (!result.written) return;
      progress.queued = result.queued;
      progress.skipped = result.skipped;
      progress.skipReasons = result.skipReasons;
    }
    const now = this.now();
    if (stopping()) {
      // Handed back: the next claim (here after a restart, or another worker) goes on at once.
      await repo.updateHeld(this.database, progress.taskId, owner, { lease_until: 0, updated_at: now });
      return;
    }
    await repo.updateHeld(this.database, progress.taskId, owner, { written: 1, updated_at: now });
  }

  /** A task's first claim: its size, its lists and template marked used. */
  private async start(task: repo.TaskRow, listIds: number[], owner: string): Promise<void> {
    const accountId = Number(task.account_id);
    const now = this.now();
    let total: number;
    if (task.resend_of !== null) {
      total = await repo.failedCount(this.database, Number(task.resend_of));
    } else {
      const lists = await repo.listsOf(this.database, accountId, listIds);
      if (lists.length === 0) throw new AppError('SMS_CONTACT_LIST_NOT_FOUND');
      total = lists.reduce((sum, list) => sum + list.memberCount, 0);
      for (const list of lists) await markListUsed(this.database, accountId, list.id, now);
    }
    await this.deps.sources.templateUsed({ accountId }, Number(task.template_id), now);
    await repo.updateHeld(this.database, Number(task.id), owner, { member_total: total, updated_at: now });
  }

  /** The lists exist in the account, none is being imported, and (`needMembers`) they have numbers. */
  private async checkLists(accountId: number, ids: number[], needMembers = true) {
    if (ids.length === 0 || ids.length > SMS_TASK_MAX_LISTS) {
      throw new AppError('SMS_TASK_LISTS_INVALID', { max: SMS_TASK_MAX_LISTS });
    }
    const lists = await repo.listsOf(this.database, accountId, ids);
    if (lists.length !== new Set(ids).size) throw new AppError('SMS_CONTACT_LIST_NOT_FOUND');
    const importing = lists.find((list) => list.importing);
    if (importing) throw new AppError('SMS_TASK_LIST_IMPORTING', { name: importing.name });
    if (needMembers && lists.every((list) => list.memberCount === 0))
      throw new AppError('SMS_TASK_LIST_EMPTY');
    return lists;
  }

  private resendable(row: repo.TaskRow, failed: number): boolean {
    const ended = row.ended_at === null ? null : Number(row.ended_at);
    return (
      (row.status === 'finished' || row.status === 'failed') &&
      ended !== null &&
      this.now() - ended <= SMS_TASK_RESEND_DAYS * DAY &&
      row.resent_by === null &&
      failed > 0
    );
  }

  private async views(accountId: number, rows: repo.TaskRow[], lang: Lang): Promise<SmsTaskView[]> {
    const ids = rows.map((r) => Number(r.id));
    const listIds = [...new Set(rows.flatMap((r) => JSON.parse(r.list_ids) as number[]))];
    const [counts, templates, lists] = await Promise.all([
      repo.messageCounts(this.database, ids),
      repo.templateNames(
        this.database,
        accountId,
        rows.map((r) => Number(r.template_id)),
      ),
      repo.listsOf(this.database, accountId, listIds),
    ]);
    const listNames = new Map(lists.map((l) => [l.id, l.name]));
    const listSizes = new Map(lists.map((l) => [l.id, l.memberCount]));
    return rows.map((row) => {
      const id = Number(row.id);
      const count = counts.get(id) ?? { requesting: 0, waiting: 0, delivered: 0, failed: 0 };
      const template = templates.get(Number(row.template_id));
      const reasons = JSON.parse(row.skip_reasons) as Record<string, number>;
      return {
        id,
        name: row.name,
        templateId: Number(row.template_id),
        templateName: template?.name ?? '',
        signName: row.sign_name ?? template?.signName ?? '',
        labelId: row.label_id === null ? null : Number(row.label_id),
        contactLists: (JSON.parse(row.list_ids) as number[]).map((listId) => ({
          id: listId,
          name: listNames.get(listId) ?? `#${listId}`,
        })),
        scheduled: Number(row.scheduled) === 1,
        sendAt: Number(row.send_at),
        status: row.status as SmsTaskStatus,
        error: row.error_code ? messageOf(row.error_code, lang) : null,
        // Counted when it starts; until then what its lists hold now.
        memberTotal:
          row.status === 'waiting'
            ? (JSON.parse(row.list_ids) as number[]).reduce(
                (sum, listId) => sum + (listSizes.get(listId) ?? 0),
                0,
              )
            : Number(row.member_total),
        queued: Number(row.queued),
        skipped: Number(row.skipped),
        skipReasons: Object.entries(reasons).map(([code, n]) => ({
          code,
          message: messageOf(code, lang),
          count: n,
        })),
        requesting: count.requesting,
        waitingReceipt: count.waiting,
        delivered: count.delivered,
        failed: count.failed,
        resendOf: row.resend_of === null ? null : Number(row.resend_of),
        resentBy: row.resent_by === null ? null : Number(row.resent_by),
        resendable: this.resendable(row, count.failed),
        createdAt: Number(row.created_at),
        startedAt: row.started_at === null ? null : Number(row.started_at),
        endedAt: row.ended_at === null ? null : Number(row.ended_at),
      };
    });
  }
}

/** A member's variables for the template: its own, and its name as `name` unless it has one. */
function varsOf(member: repo.MemberRow): Record<string, string> {
  const vars = member.vars ? (JSON.parse(member.vars) as Record<string, string>) : {};
  if (member.name && vars.name === undefined) vars.name = member.name;
  return vars;
}

/** An error code's text without its parameters (a task's skip reasons are counts, not one number). */
function messageOf(code: string, lang: Lang): string {
  return Object.hasOwn(ERRORS, code)
    ? formatMessage(code as ErrorCode, lang).replace(/[:：]?\s*\{\w+\}/g, '')
    : code;
}
