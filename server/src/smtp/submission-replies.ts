import { AppError, formatMessage } from '@herald/shared';
import { smtpReply } from './listen.ts';

/**
 * The SMTP edge of the error vocabulary: a refused credential is 535, a message too large 552,
 * a sender outside the account's domains or any other refused message 550 (553 for a malformed
 * address), and Herald's own trouble 451 so the client tries again later. The text is English,
 * with SendCloud's statusCode in brackets for clients that log it.
 */
export function smtpReplyFor(error: unknown): Error & { responseCode: number } {
  if (!(error instanceof AppError)) return smtpReply(451, '4.3.0 Temporary failure, try again later');
  const text = `${formatMessage(error.code, 'en', error.params)}`;
  switch (error.code) {
    case 'API_AUTH_FAILED':
      return smtpReply(535, `5.7.8 Authentication failed: ${text}`);
    case 'API_AUTH_THROTTLED':
      return smtpReply(454, `4.7.0 ${text}`);
    case 'SEND_MESSAGE_TOO_LARGE':
    case 'SEND_ATTACHMENTS_TOO_LARGE':
      return smtpReply(552, `5.3.4 ${text}`);
    case 'SEND_FROM_DOMAIN_UNUSABLE':
      return smtpReply(550, `5.7.1 ${text}`);
    case 'SEND_FROM_INVALID':
    case 'SEND_FROM_REQUIRED':
    case 'SEND_TO_INVALID':
      return smtpReply(553, `5.1.3 ${text}`);
    case 'SEND_QUOTA_EXCEEDED':
    case 'SEND_TEST_QUOTA_EXCEEDED':
    case 'ACCOUNT_SUSPENDED':
    case 'ACCOUNT_FROZEN':
      return smtpReply(550, `5.7.1 ${text}`);
    default:
      if (error.status >= 500) return smtpReply(451, `4.3.0 ${text}`);
      return smtpReply(550, `5.6.0 ${text}`);
  }
}
