import type { FastifyRequest } from 'fastify';
import type { Core } from '../../compose.ts';
import type { SmsUserRef } from '../../core/sms-users/sms-users.service.ts';
import type { ActionDocs } from '../apiv2/apiv2-docs.ts';
import type { Envelope } from '../apiv2/envelope.ts';

/**
 * The shape of an /smsapi action, in a file of its own: the plugin lists every action and the
 * action files (smsapi-contacts.ts, smsapi-labels.ts, smsapi-tasks.ts) declare theirs, so neither
 * imports the other's file for it.
 */

/** One authenticated call: its SMS_USER, its parameters, the request. */
export interface SmsCall {
  smsUser: SmsUserRef;
  fields: Record<string, string>;
  request: FastifyRequest;
}

export type SmsAction = (call: SmsCall, core: Core) => Promise<Envelope>;

/** One /smsapi action: its lower-case path, what it declares, and what it does. */
export interface SmsapiActionEntry {
  path: string;
  docs: ActionDocs;
  action: SmsAction;
}
