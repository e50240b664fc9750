import type { MessageSource, RecipientKind } from '../../db/message-schema.ts';

/** The text parameters of mail/send and mail/sendtemplate, as SendCloud names them. */
export type SendFields = Partial<Record<string, string>>;

export interface SendAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** One recipient of a prepared message, ready to be written. */
export interface PreparedRecipient {
  index: number;
  emailId: string;
  recipient: string;
  domain: string;
  kind: RecipientKind;
  vars: string | null;
}

/** Everything the accept path decided about one message, before the group commit writes it. */
export interface PreparedMessage {
  accountId: number;
  apiUserId: number;
  source: MessageSource;
  emailType: 'trigger' | 'batch';
  messageId: string;
  fromAddress: string;
  fromName: string | null;
  replyTo: string | null;
  subject: string;
  contentSummary: string | null;
  labelId: number | null;
  templateId: number | null;
  headers: string | null;
  xsmtpapi: string | null;
  useNotification: boolean;
  individual: boolean;
  html: string | null;
  plain: string | null;
  mime: Buffer | null;
  attachments: { filename: string; contentType: string; content: Buffer }[];
  recipients: PreparedRecipient[];
  sizeBytes: number;
  sendRequestId: string | null;
  /** The account's emails per day, or null for no limit. */
  accountLimit: number | null;
  /** The API_USER's own emails per day (a test API_USER), or null. */
  apiUserLimit: number | null;
  /** A list task's chunk: written only while the task's lease holds, with its progress; lane 1. */
  listTask?: ListTaskProgress | undefined;
}

/**
 * Where a list task stands once its chunk is written (core/mail-list-tasks): the writer moves the
 * task's row to it in the chunk's transaction, fenced by the task's lease, so a worker that lost
 * the task writes nothing and no member is mailed twice.
 */
export interface ListTaskProgress {
  taskId: number;
  owner: string;
  leaseUntil: number;
  /** The chunk's last member. */
  cursorAddress: string;
  /** Recipients written for the task with this chunk. */
  queued: number;
  /** Every member is written with this chunk. */
  written: boolean;
}

/** What an accepted send answers: the message id and one emailId per recipient. */
export interface AcceptResult {
  messageId: string;
  emailIdList: string[];
  /** True when a sendRequestId seen within the hour returned the first answer. */
  replayed: boolean;
}
