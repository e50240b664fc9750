/**
 * What a failed delivery attempt is about; classify.ts maps each to its invalid reason and
 * soft-bounce class. A file of its own because both classify.ts and the reply patterns it reads
 * (reply-patterns.ts) name it.
 */
export type FailureCategory =
  | 'blacklist'
  | 'unsubscribed'
  | 'server_unreachable'
  | 'format_error'
  | 'ip_domain_rejected'
  | 'not_exist'
  | 'spam'
  | 'rejected'
  | 'other';
