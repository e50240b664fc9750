import {
  AppError,
  isAppError,
  isTimedTaskTimePast,
  type Lang,
  type TimedTaskFileView,
  type TimedTaskOptions,
  type TimedTaskQuery,
  type TimedTasksPage,
  type TimedTaskValues,
  type TimedTaskView,
  timedTaskFileProblem,
  timedTaskFilesProblem,
  zonedTimeToEpoch,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import type { AddressListsService } from '../address-lists/address-lists.service.ts';
import { apiUserRefOf } from '../api-users/api-user-auth.ts';
import { findApiUser, findPlan } from '../api-users/api-users.repo.ts';
import type { Caller, KeyCaller, UserCaller } from '../context.ts';
import type { ListSendRequest } from '../send/list-send.ts';
import type { SendService } from '../send/send.service.ts';
import type { TaskRunner } from '../tasks/task-runner.ts';
import { findTemplate } from '../templates/templates.repo.ts';
import { cleanName } from '../uploads/uploads.service.ts';
import * as files from './timed-task-files.repo.ts';
import { formOptions } from './timed-task-names.repo.ts';
import { taskViews } from './timed-task-views.ts';
import * as repo from './timed-tasks.repo.ts';
import { UploadProgress } from './upload-progress.ts';

/** Uploads no task named are deleted a day later, on the account's next upload. */
const ABANDONED_AFTER_MS = 24 * 3600_000;

export interface TimedTasksDeps {
  database: Database;
  send: Pick<SendService, 'prepareListSend'>;
  lists: AddressListsService;
  logger: Logger;
  now?: () => number;
  leaseMs?: number;
}

/**
 * Timed tasks (issue 21; product-spec §3–§5): a passed template sent at a chosen time, in a chosen
 * time zone, to up to 5 address lists through one of the account's batch API_USERs.
 *
 * Saving a task checks everything its request will need (the lists, the template, the sender's
 * domain, the label, the attachments) so the form reports it at once. At its time whichever
 * worker's runner claims the task (core/tasks/task-lease.repo.ts) makes the request: it checks the
 * send again as `mail/sendtemplate` would, with the template as it is then, and in one transaction
 * fenced by its lease writes one list send per list (core/mail-list-tasks, which reads the task's
 * attachments) and marks the task requested; a send the account can no longer make marks it
 * failed with the reason. Before its time a task may be changed or cancelled.
 */
export class TimedTasksService implements TaskRunner {
  private readonly database: Database;
  private readonly deps: TimedTasksDeps;
  private readonly now: () => number;
  private readonly leaseMs: number;
  private waker: (() => void) | undefined;
  /** `upload/progress`: the uploads this process is receiving. */
  readonly uploads = new UploadProgress();

  constructor(deps: TimedTasksDeps) {
    this.deps = deps;
    this.database = deps.database;
    this.now = deps.now ?? Date.now;
    this.leaseMs = deps.leaseMs ?? 60_000;
  }

  onStartable(wake: () => void): void {
    this.waker = wake;
  }

  /** `/systemParam/taskPrivate`: whether each user sees only the timed tasks they made. */
  taskPrivate({ accountId }: Caller): Promise<boolean> {
    return repo.taskPrivate(this.database, accountId);
  }

  setTaskPrivate({ accountId }: Caller, on: boolean): Promise<void> {
    return repo.setTaskPrivate(this.database, accountId, on);
  }

  async options({ accountId }: Caller): Promise<TimedTaskOptions> {
    await this.deps.lists.requirePaid({ accountId });
    const found = await formOptions(this.database, accountId);
    return {
      templates: found.templates.map((t) => ({ id: Number(t.id), name: t.name, invokeName: t.invoke_name })),
      lists: found.lists.map((l) => ({
        id: Number(l.id),
        name: l.name,
        address: this.deps.lists.aliasOf(l.prefix),
        memberCount: Number(l.member_count),
      })),
      apiUsers: found.apiUsers.map((u) => ({ id: Number(u.id), name: u.name })),
      labels: found.labels.map((l) => ({ id: Number(l.id), name: l.name })),
      domains: found.domains,
    };
  }

  /** An attachment, before the task naming it is saved (product-spec §5's file rules). */
  async upload(
    { accountId }: Caller,
    file: { name: string; contentType: string; content: Buffer },
  ): Promise<TimedTaskFileView> {
    await this.deps.lists.requirePaid({ accountId });
    const name = cleanName(file.name, 200);
    const problem = timedTaskFileProblem({ name, size: file.content.length });
    if (problem) throw new AppError(problem);
    const now = this.now();
    await files.deleteUnattached(this.database, accountId, now - ABANDONED_AFTER_MS);
    const id = await files.insertFile(
      this.database,
      accountId,
      { name, contentType: file.contentType, content: file.content },
      now,
    );
    return { id, name, size: file.content.length };
  }

  async create(caller: UserCaller, input: TimedTaskValues, lang: Lang): Promise<TimedTaskView> {
    const values = await this.check(caller, input, null);
    const id = await this.database.db.transaction().execute(async (trx) => {
      const tx = { ...this.database, db: trx };
      const made = await repo.insertTask(tx, caller.accountId, caller.userId, values, this.now());
      await files.attachFiles(tx, caller.accountId, made, input.attachmentIds);
      return made;
    });
    if (values.send_at <= this.now()) this.waker?.();
    return this.get(caller, id, lang);
  }

  /** Only before it starts. */
  async update(caller: UserCaller, id: number, input: TimedTaskValues, lang: Lang): Promise<TimedTaskView> {
    await this.requireChangeable(caller, id);
    const values = await this.check(caller, input, id);
    const owner = await this.ownerFilter(caller);
    const changed = await this.database.db.transaction().execute(async (trx) => {
      const tx = { ...this.database, db: trx };
      if (!(await repo.updateWaiting(tx, caller.accountId, owner, id, values, this.now()))) return false;
      await files.attachFiles(tx, caller.accountId, id, input.attachmentIds);
      return true;
    });
    if (!changed) throw new AppError('TIMED_TASK_NOT_CHANGEABLE');
    if (values.send_at <= this.now()) this.waker?.();
    return this.get(caller, id, lang);
  }

  /** Only before it starts: a task whose request is made stays made. */
  async cancel(caller: Caller, id: number, lang: Lang): Promise<TimedTaskView> {
    const owner = await this.ownerFilter(caller);
    if (!(await repo.cancelWaiting(this.database, caller.accountId, owner, id, this.now()))) {
      await this.requireChangeable(caller, id);
    }
    return this.get(caller, id, lang);
  }

  /** A task not making its request, whose list sends have all ended. */
  async remove(caller: Caller, id: number): Promise<void> {
    const owner = await this.ownerFilter(caller);
    if (await repo.deleteIdle(this.database, caller.accountId, owner, id)) return;
    await this.row(caller, id);
    throw new AppError('TIMED_TASK_NOT_DELETABLE');
  }

  /** The page a free account gets is empty, saying so. */
  async list(caller: Caller, query: TimedTaskQuery, lang: Lang): Promise<TimedTasksPage> {
    if ((await findPlan(this.database, caller.accountId)) !== 'paid')
      return { list: [], total: 0, paid: false };
    const { rows, total } = await repo.listTasks(
      this.database,
      caller.accountId,
      await this.ownerFilter(caller),
      {
        name: query.name,
        status: query.status,
        offset: (query.pageNum - 1) * query.pageSize,
        limit: query.pageSize,
      },
    );
    return { list: await this.views(caller.accountId, rows, lang), total, paid: true };
  }

  async get(caller: Caller, id: number, lang: Lang): Promise<TimedTaskView> {
    const [view] = await this.views(caller.accountId, [await this.row(caller, id)], lang);
    return view as TimedTaskView;
  }

  /** Claims one due task for `owner` and makes its request. Answers whether there was one. */
  async runDue(owner: string): Promise<boolean> {
    const task = await repo.claimTask(this.database, owner, this.now(), this.leaseMs);
    if (!task) return false;
    const accountId = Number(task.account_id);
    const id = Number(task.id);
    try {
      const { caller, request, lists } = await this.prepare(accountId, taskInput(task));
      const sends = lists.map((list) => ({
        accountId,
        apiUserId: caller.apiUser.id,
        listId: Number(list.id),
        listAddress: this.deps.lists.aliasOf(list.prefix),
        request: JSON.stringify(request),
        attachments: null,
        timedTaskId: id,
      }));
      await repo.request(this.database, id, owner, sends, this.now());
    } catch (error) {
      if (!isAppError(error)) {
        // Left to its lease: this worker or another makes the request once it runs out.
        this.deps.logger.error({ err: error, timedTaskId: id }, 'making a timed task request failed');
        return true;
      }
      await repo.failHeld(this.database, id, owner, error.code, this.now());
    }
    return true;
  }

  /** A timed task ends with its request; its list sends finish on their own. */
  async finishSent(): Promise<number> {
    return 0;
  }

  /**
   * Checks a task as its request will be made (lists, API_USER, template, sender, label) and its
   * time and attachments; answers the stored values.
   */
  private async check(caller: Caller, input: TimedTaskValues, self: number | null): Promise<repo.TaskValues> {
    const { accountId } = caller;
    const sendAt = zonedTimeToEpoch(input.sendAt, input.timeZone);
    if (sendAt === null || isTimedTaskTimePast(sendAt, this.now()))
      throw new AppError('TIMED_TASK_TIME_PAST');
    await this.prepare(accountId, input);
    const found = await files.findFiles(this.database, accountId, [...new Set(input.attachmentIds)]);
    if (
      found.length !== new Set(input.attachmentIds).size ||
      found.some((f) => f.task_id !== null && f.task_id !== self)
    ) {
      throw new AppError('TIMED_TASK_FILE_NOT_FOUND');
    }
    const problem = timedTaskFilesProblem(found.map((f) => f.size));
    if (problem) throw new AppError(problem, { max: 10 });
    return {
      api_user_id: input.apiUserId,
      name: input.name,
      from_name: input.fromName,
      from_address: input.from,
      reply_to: input.replyTo ?? null,
      template_id: input.templateId,
      list_ids: JSON.stringify(input.listIds),
      label_id: input.labelId ?? null,
      tag: input.tag || null,
      local_time: input.sendAt,
      time_zone: input.timeZone,
      send_at: sendAt,
    };
  }

  /** The send the task's request makes, checked as `mail/sendtemplate` would check it. */
  private async prepare(
    accountId: number,
    input: Pick<
      TimedTaskValues,
      'apiUserId' | 'templateId' | 'listIds' | 'from' | 'fromName' | 'replyTo' | 'labelId'
    >,
  ): Promise<{ caller: KeyCaller; request: ListSendRequest; lists: { id: number; prefix: string }[] }> {
    const lists = [];
    for (const listId of input.listIds) lists.push(await this.deps.lists.listRow({ accountId }, listId));
    const apiUser = await findApiUser(this.database, accountId, input.apiUserId);
    if (apiUser?.email_type !== 'batch') throw new AppError('TIMED_TASK_API_USER');
    const template = await findTemplate(this.database, accountId, input.templateId);
    if (!template) throw new AppError('TIMED_TASK_TEMPLATE_NOT_FOUND');
    const caller: KeyCaller = { accountId, apiUser: apiUserRefOf(apiUser) };
    const request = await this.deps.send.prepareListSend(
      caller,
      {
        from: input.from,
        fromName: input.fromName,
        replyTo: input.replyTo,
        templateInvokeName: template.invoke_name,
        labelId: input.labelId === undefined ? undefined : String(input.labelId),
      },
      [],
      'template',
    );
    return { caller, request, lists: lists.map((l) => ({ id: Number(l.id), prefix: l.prefix })) };
  }

  private async ownerFilter(caller: Caller): Promise<number | null> {
    if (caller.userId === undefined) return null;
    return (await repo.taskPrivate(this.database, caller.accountId)) ? caller.userId : null;
  }

  private async row(caller: Caller, id: number): Promise<repo.TaskRow> {
    await this.deps.lists.requirePaid(caller);
    const owner = await this.ownerFilter(caller);
    const row = await repo.findTask(this.database, caller.accountId, owner, id);
    if (!row) throw new AppError('TIMED_TASK_NOT_FOUND');
    return row;
  }

  private async requireChangeable(caller: Caller, id: number): Promise<void> {
    const row = await this.row(caller, id);
    if (row.status !== 'waiting') throw new AppError('TIMED_TASK_NOT_CHANGEABLE');
  }

  private views(accountId: number, rows: repo.TaskRow[], lang: Lang): Promise<TimedTaskView[]> {
    return taskViews(this.database, (prefix) => this.deps.lists.aliasOf(prefix), accountId, rows, lang);
  }
}

/** The stored task as the request's input. */
function taskInput(task: repo.TaskRow) {
  return {
    apiUserId: Number(task.api_user_id),
    templateId: Number(task.template_id),
    listIds: JSON.parse(task.list_ids) as number[],
    from: task.from_address,
    fromName: task.from_name,
    replyTo: task.reply_to ?? undefined,
    labelId: task.label_id === null ? undefined : Number(task.label_id),
  };
}
