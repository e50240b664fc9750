import type { OwedReceipt, SmsGatewayService } from '../core/sms-gateway-users/sms-gateway.service.ts';
import type {
  GatewayLogin,
  SmsGatewayUsersService,
} from '../core/sms-gateway-users/sms-gateway-users.service.ts';
import type { Logger } from '../logger.ts';
import type { MsgIds } from './msg-ids.ts';
import type { ReceiptPump } from './receipt-pump.ts';
import type { UserLimits } from './user-limits.ts';

/** What both gateway servers share in one process. */
export interface GatewayDeps {
  users: Pick<SmsGatewayUsersService, 'login'>;
  gateway: Pick<SmsGatewayService, 'submit' | 'owe'>;
  pump: ReceiptPump;
  limits: UserLimits;
  /** Msg_Ids for submits (and SMPP message_ids). */
  msgIds: MsgIds;
  logger: Logger;
}

export interface SessionTimers {
  /** Silence after which Herald sends ACTIVE_TEST / enquire_link. Default 30 s. */
  activeTestMs: number;
  /** Unanswered keepalives in a row after which the connection is closed. Default 3. */
  activeTestMisses: number;
  /** A connection not logged in after this long is closed. Default 10 s. */
  loginTimeoutMs: number;
  /** A DELIVER unanswered this long frees its place (it is owed again later). Default 30 s. */
  responseTimeoutMs: number;
}

export const DEFAULT_TIMERS: SessionTimers = {
  activeTestMs: 30_000,
  activeTestMisses: 3,
  loginTimeoutMs: 10_000,
  responseTimeoutMs: 30_000,
};

/** DELIVERs in flight on one connection: the user's window, at least 16. */
export const deliverWindow = (login: Pick<GatewayLogin, 'window'>): number => Math.max(16, login.window);

/** A number as reports and replies name it: mainland numbers national, others without the plus. */
export function wirePhone(phone: string): string {
  return phone.startsWith('+86') ? phone.slice(3) : phone.replace(/^\+/, '');
}

export type { GatewayLogin, OwedReceipt };
