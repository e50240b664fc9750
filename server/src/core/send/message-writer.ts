import type { AcceptResult, PreparedMessage } from './send.types.ts';

/**
 * The accept side's store: writes one group commit's batch of prepared messages in one
 * transaction and answers one result per message, only once that transaction is durable. Two
 * implementations keep the same rules:
 *  - KyselyMessageWriter (kysely-message-writer.ts): PostgreSQL, and SQLite in memory;
 *  - SqliteMessageWriter (sqlite-message-writer.ts): the embedded SQLite file, written on a thread
 *    of its own (sqlite-message-writer.worker.ts).
 * One contract test suite (server/test/send/message-writer.contract.test.ts) runs the same cases
 * against both.
 *
 * The rules, in order, inside the transaction:
 *  1. a sendRequestId the account used within SEND_REQUEST_TTL_MS answers what it answered the
 *     first time (replayed: true) and writes nothing; an expired one is forgotten;
 *  2. the daily quotas (the account's and a test API_USER's, counted per recipient on the
 *     Asia/Shanghai day, quota.ts) refuse a message that would pass them with SEND_QUOTA_EXCEEDED
 *     (the account's) or SEND_TEST_QUOTA_EXCEEDED (the test API_USER's);
 *     messages of one batch count against each other in order;
 *  3. a list task's chunk whose task this worker no longer holds is refused with
 *     MAIL_LIST_TASK_LEASE_LOST; a held task's row takes the chunk's progress;
 *  4. every other message is written: the message, its body, attachments, one recipient row per
 *     recipient (status `requested`, due now, lane 1 for a list task's), the send request (for the TTL), the day's usage,
 *     the template's last use, and one `request` event per recipient.
 */
export interface MessageWriter {
  write(items: PreparedMessage[]): Promise<(AcceptResult | Error)[]>;
  close(): Promise<void>;
}

/** How long a sendRequestId answers with its first result. */
export const SEND_REQUEST_TTL_MS = 3600_000;
