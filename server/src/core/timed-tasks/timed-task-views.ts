import type { Lang, TimedTaskTimeZone, TimedTaskView } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import { recipientCounts } from '../mail-list-tasks/mail-list-tasks.repo.ts';
import { errorText } from '../mail-list-tasks/mail-list-tasks.service.ts';
import { filesOfTasks } from './timed-task-files.repo.ts';
import { referencedNames } from './timed-task-names.repo.ts';
import { sendsOf, type TaskRow } from './timed-tasks.repo.ts';

/**
 * Timed tasks as the console sees them: the names of what they refer to, their attachments and,
 * once their request is made, each list send with where its mail stands, summed into the task's
 * progress. `aliasOf` gives a list's alias from its prefix.
 */
export async function taskViews(
  database: Database,
  aliasOf: (prefix: string) => string,
  accountId: number,
  rows: TaskRow[],
  lang: Lang,
): Promise<TimedTaskView[]> {
  const ids = rows.map((r) => Number(r.id));
  const listIds = rows.map((r) => JSON.parse(r.list_ids) as number[]);
  const [names, attached, sends] = await Promise.all([
    referencedNames(database, accountId, {
      templates: rows.map((r) => Number(r.template_id)),
      lists: listIds.flat(),
      apiUsers: rows.map((r) => Number(r.api_user_id)),
      labels: rows.flatMap((r) => (r.label_id === null ? [] : [Number(r.label_id)])),
    }),
    filesOfTasks(database, accountId, ids),
    sendsOf(database, accountId, ids),
  ]);
  const counted = await Promise.all(
    sends.map(async (s) => ({ send: s, counts: await recipientCounts(database, Number(s.id)) })),
  );
  return rows.map((row, i) => {
    const id = Number(row.id);
    const mine = counted
      .filter(({ send }) => Number(send.timed_task_id) === id)
      .map(({ send, counts }) => ({
        listId: Number(send.list_id),
        listAddress: send.list_address,
        listName: names.lists.get(Number(send.list_id))?.name ?? '',
        status: send.status,
        memberTotal: Number(send.member_total),
        queued: Number(send.queued),
        waiting: counts.waiting,
        delivered: counts.delivered,
        invalid: counts.invalid,
        softBounce: counts.softBounce,
        error: send.error_code ? errorText(send.error_code, lang) : null,
      }));
    const sum = (pick: (s: (typeof mine)[number]) => number) => mine.reduce((n, s) => n + pick(s), 0);
    const label = row.label_id === null ? undefined : names.labels.get(Number(row.label_id));
    return {
      id,
      name: row.name,
      fromName: row.from_name,
      from: row.from_address,
      replyTo: row.reply_to,
      templateId: Number(row.template_id),
      templateName: names.templates.get(Number(row.template_id))?.name ?? '',
      lists: (listIds[i] ?? []).map((listId) => {
        const list = names.lists.get(listId);
        return {
          id: listId,
          name: list?.name ?? '',
          address: list ? aliasOf(list.prefix) : '',
        };
      }),
      labelId: row.label_id === null ? null : Number(row.label_id),
      labelName: label?.name ?? null,
      tag: row.tag,
      apiUserId: Number(row.api_user_id),
      apiUserName: names.apiUsers.get(Number(row.api_user_id))?.name ?? '',
      sendAt: row.local_time,
      timeZone: row.time_zone as TimedTaskTimeZone,
      sendAtMs: Number(row.send_at),
      status: row.status,
      message: row.error_code ? errorText(row.error_code, lang) : null,
      attachments: attached
        .filter((f) => f.task_id === id)
        .map((f) => ({ id: f.id, name: f.name, size: f.size })),
      sends: mine,
      progress: {
        memberTotal: sum((s) => s.memberTotal),
        queued: sum((s) => s.queued),
        delivered: sum((s) => s.delivered),
        waiting: sum((s) => s.waiting),
        failed: sum((s) => s.invalid + s.softBounce),
      },
      changeable: row.status === 'waiting',
      createdAt: Number(row.created_at),
      startedAt: row.started_at === null ? null : Number(row.started_at),
    };
  });
}
