import {
  AppError,
  ERRORS,
  type ErrorCode,
  formatMessage,
  isAppError,
  type Lang,
  splitAddressList,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import * as lists from '../address-lists/address-lists.repo.ts';
import type { AddressListsService } from '../address-lists/address-lists.service.ts';
import type { KeyCaller } from '../context.ts';
import { type ListSendRequest, memberVars } from '../send/list-send.ts';
import { SEND_REQUEST_TTL_MS } from '../send/message-writer.ts';
import type { SendService } from '../send/send.service.ts';
import type { SendAttachment, SendFields } from '../send/send.types.ts';
import type { TaskRunner } from '../tasks/task-runner.ts';
import { contentsOfTask } from '../timed-tasks/timed-task-files.repo.ts';
import * as repo from './mail-list-tasks.repo.ts';

/** Lists one list send may name in `to` (reference §2). */
export const LIST_SEND_MAX_LISTS = 5;

export interface MailListTasksDeps {
  database: Database;
  send: Pick<SendService, 'prepareListSend' | 'acceptListChunk'>;
  lists: AddressListsService;
  logger: Logger;
  now?: () => number;
  /** Members per written chunk (one message): small enough that API sends never wait long behind one. */
  chunkSize?: number;
  leaseMs?: number;
}

/** `mail/taskinfo`: the reference's fields (§4), then Herald's counts of where the mail stands. */
export interface MailListTaskInfo extends repo.RecipientCounts {
  maillistTaskId: number;
  apiUser: string;
  addressList: string;
  memberCount: number;
  createdAt: number;
  updatedAt: number;
  status: repo.TaskRow['status'];
  /** Recipients written so far. */
  queued: number;
  /** Why the task stopped, in the caller's language; null unless it failed. */
  error: string | null;
}

/**
 * Sending to address lists (issue 21; reference §2–§4): `mail/send` or `mail/sendtemplate` with
 * `useAddressList=true` names up to 5 lists by alias in `to`; the call is checked as its send
 * would be and answered at once with one task per list (SendCloud's 40821 and maillistTaskId).
 * Lists are batch mail of paid accounts (product-spec §6): a trigger API_USER is refused first,
 * then a free account. A sendRequestId used again within the hour answers the tasks the first
 * call made and makes none (the send path's rule, kept in the same send_requests table).
 *
 * A task is run by whichever worker claims it (`runDue`, the shared task runner): the list's
 * members are read in address order after the task's cursor, and each chunk goes through the
 * send path's own accept (SendService.acceptListChunk: the account's state, its domain, the
 * day's quota) as one individual message whose recipients carry the member's name and
 * variables, in lane 1 of the delivery queue, with the task's cursor in the same transaction.
 * The delivery pipeline then treats them as any recipient: suppressed and unsubscribed members
 * are recorded invalid with their list's reason and never mailed. A task is finished once every
 * member is written and none of its mail is still with Herald (`finishSent`).
 */
export class MailListTasksService implements TaskRunner {
  private readonly database: Database;
  private readonly deps: MailListTasksDeps;
  private readonly now: () => number;
  private readonly chunkSize: number;
  private readonly leaseMs: number;
  private waker: (() => void) | undefined;

  constructor(deps: MailListTasksDeps) {
    this.deps = deps;
    this.database = deps.database;
    this.now = deps.now ?? Date.now;
    this.chunkSize = deps.chunkSize ?? 500;
    this.leaseMs = deps.leaseMs ?? 60_000;
  }

  onStartable(wake: () => void): void {
    this.waker = wake;
  }

  /** Checks a list send and makes its tasks, one per list; answers their ids in `to`'s order. */
  async create(
    caller: KeyCaller,
    fields: SendFields,
    attachments: SendAttachment[],
    kind: 'send' | 'template',
  ): Promise<number[]> {
    const { accountId } = caller;
    if (caller.apiUser.emailType !== 'batch') throw new AppError('SEND_ADDRESS_LIST_BATCH_ONLY');
    await this.deps.lists.requirePaid(caller);
    const aliases = [...new Set(splitAddressList(fields.to).map((a) => a.toLowerCase()))];
    if (aliases.length === 0) throw new AppError('SEND_TO_REQUIRED');
    if (aliases.length > LIST_SEND_MAX_LISTS) {
      throw new AppError('SEND_ADDRESS_LIST_TOO_MANY', { max: LIST_SEND_MAX_LISTS });
    }
    const found: lists.ListRow[] = [];
    for (const alias of aliases) {
      const list = await this.deps.lists.listByAddress(caller, alias).catch(() => undefined);
      if (!list) throw new AppError('SEND_ADDRESS_LIST_NOT_FOUND', { to: (fields.to ?? '').slice(0, 500) });
      found.push(list);
    }
    const request = await this.deps.send.prepareListSend(caller, fields, attachments, kind);
    const files =
      attachments.length > 0
        ? JSON.stringify(attachments.map((a) => ({ ...a, content: a.content.toString('base64') })))
        : null;
    const sendRequestId = (fields.sendRequestId ?? '').trim();
    const { ids, replayed } = await repo.insertTasks(
      this.database,
      found.map((list) => ({
        accountId,
        apiUserId: caller.apiUser.id,
        listId: Number(list.id),
        listAddress: this.deps.lists.aliasOf(list.prefix),
        request: JSON.stringify(request),
        attachments: files,
      })),
      this.now(),
      sendRequestId ? { sendRequestId, ttlMs: SEND_REQUEST_TTL_MS } : null,
    );
    if (!replayed) this.waker?.();
    return ids;
  }

  /** `mail/taskinfo`: another account's task is not found. */
  async info({ accountId }: KeyCaller, id: number, lang: Lang): Promise<MailListTaskInfo> {
    const row = Number.isSafeInteger(id) ? await repo.findTask(this.database, accountId, id) : undefined;
    if (!row) throw new AppError('MAIL_LIST_TASK_NOT_FOUND');
    const counts = await repo.recipientCounts(this.database, Number(row.id));
    return {
      maillistTaskId: Number(row.id),
      apiUser: row.api_user_name ?? '',
      addressList: row.list_address,
      memberCount: Number(row.member_total),
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
      status: row.status,
      queued: Number(row.queued),
      ...counts,
      error: row.error_code ? errorText(row.error_code, lang) : null,
    };
  }

  /**
   * Claims one due task for `owner` and writes its members to the end, unless `stopping()` says
   * to hand it back first. Answers whether there was a task.
   */
  async runDue(owner: string, stopping: () => boolean): Promise<boolean> {
    const task = await repo.claimTask(this.database, owner, this.now(), this.leaseMs);
    if (!task) return false;
    try {
      await this.write(task, owner, stopping);
    } catch (error) {
      if (!isAppError(error)) {
        // Left to its lease: this worker or another continues from the cursor.
        this.deps.logger.error({ err: error, taskId: task.id }, 'writing a list task failed');
        return true;
      }
      const now = this.now();
      await repo.updateHeld(this.database, Number(task.id), owner, {
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

  finishSent(): Promise<number> {
    return repo.finishSent(this.database, this.now());
  }

  private async write(task: repo.TaskRow, owner: string, stopping: () => boolean): Promise<void> {
    const accountId = Number(task.account_id);
    const taskId = Number(task.id);
    const list = await lists.findList(this.database, accountId, Number(task.list_id));
    if (!list) throw new AppError('ADDRESS_LIST_NOT_FOUND');
    const request = JSON.parse(task.request) as ListSendRequest;
    const attachments = task.attachments
      ? (JSON.parse(task.attachments) as { filename: string; contentType: string; content: string }[]).map(
          (a) => ({ ...a, content: Buffer.from(a.content, 'base64') }),
        )
      : task.timed_task_id !== null
        ? await contentsOfTask(this.database, accountId, Number(task.timed_task_id))
        : [];
    let cursor = task.cursor_address;
    let queued = Number(task.queued);
    if (cursor === '' && queued === 0) {
      await this.deps.lists.markUsed({ accountId }, Number(list.id));
      const held = await repo.updateHeld(this.database, taskId, owner, {
        member_total: Number(list.member_count),
        updated_at: this.now(),
      });
      if (!held) return;
    }
    while (!stopping()) {
      const members = await lists.membersAfter(this.database, list, cursor, this.chunkSize);
      if (members.length === 0) {
        await repo.updateHeld(this.database, taskId, owner, { written: 1, updated_at: this.now() });
        return;
      }
      const last = members.length < this.chunkSize;
      const progress = {
        taskId,
        owner,
        leaseUntil: this.now() + this.leaseMs,
        cursorAddress: (members.at(-1) as lists.MemberRow).address,
        queued: queued + members.length,
        written: last,
      };
      const recipients = members.map((m) => ({
        address: m.address,
        vars: memberVars(m.name, m.vars ? (JSON.parse(m.vars) as Record<string, string>) : {}),
      }));
      try {
        await this.deps.send.acceptListChunk({ accountId }, request, attachments, recipients, progress);
      } catch (error) {
        if (isAppError(error) && error.code === 'MAIL_LIST_TASK_LEASE_LOST') return;
        throw error;
      }
      cursor = progress.cursorAddress;
      queued = progress.queued;
      if (last) return;
    }
    // Handed back: the next claim (here after a restart, or another worker) goes on at once.
    await repo.updateHeld(this.database, taskId, owner, { lease_until: 0, updated_at: this.now() });
  }
}

/** A stopped task's reason: its code's text, without the parameters it was not stored with. */
export function errorText(code: string, lang: Lang): string {
  return Object.hasOwn(ERRORS, code)
    ? formatMessage(code as ErrorCode, lang).replace(/[:：]?\s*\{\w+\}/g, '')
    : code;
}
