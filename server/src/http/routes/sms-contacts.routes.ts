import { Readable } from 'node:stream';
import {
  PERMISSIONS,
  smsContactListIdSchema,
  smsContactListInputSchema,
  smsContactListQuerySchema,
  smsContactMemberCreateSchema,
  smsContactMemberIdSchema,
  smsContactMemberInputSchema,
  smsContactMemberQuerySchema,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { pageWindow } from '../../core/sms-contacts/sms-contacts.service.ts';
import { callerOf } from '../context.ts';
import { listImportRoutes } from './list-imports.routes.ts';

const SEND = { access: PERMISSIONS.SMS_SEND };
const DOWNLOAD = { ...SEND, download: true };
const LISTS = '/v3/api/sms/smsContactlists';
const MEMBERS = '/v3/api/sms/smsContactlistMembers';
const listParam = z.object({ id: smsContactListIdSchema });
const memberParam = z.object({ id: smsContactMemberIdSchema });
const listQuery = z.object({ listId: smsContactListIdSchema });

/**
 * SMS contact lists (console `/s_sendRelative/contact` and `contact/contactEdit`, code 18, as
 * the other SMS sending screens): lists with paging and a name search, one, create, rename,
 * delete; members of a list with a number-or-name search, add, edit, delete; the file import
 * (multipart upload, then its progress, its cancel and its error report) and the CSV export.
 * Downloads are downloads: view-only callers are refused and download verification applies.
 */
export function smsContactsRoutes(app: FastifyInstance, core: Core): void {
  const contacts = core.smsContacts;

  app.get(LISTS, { config: SEND }, async (request) => {
    const query = smsContactListQuerySchema.parse(request.query ?? {});
    return { data: await contacts.lists(callerOf(request), { name: query.name, ...pageWindow(query) }) };
  });

  app.get(`${LISTS}/:id`, { config: SEND }, async (request) => ({
    data: await contacts.getList(callerOf(request), listParam.parse(request.params).id),
  }));

  app.post(LISTS, { config: SEND }, async (request, reply) => {
    const input = smsContactListInputSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await contacts.createList(callerOf(request), input) });
  });

  app.put(`${LISTS}/:id`, { config: SEND }, async (request) => {
    const { id } = listParam.parse(request.params);
    const input = smsContactListInputSchema.parse(request.body ?? {});
    return { data: await contacts.updateList(callerOf(request), id, input) };
  });

  app.delete(`${LISTS}/:id`, { config: SEND }, async (request, reply) => {
    await contacts.removeList(callerOf(request), listParam.parse(request.params).id);
    return reply.status(204).send();
  });

  app.get(MEMBERS, { config: SEND }, async (request) => {
    const { listId, query, ...page } = smsContactMemberQuerySchema.parse(request.query ?? {});
    return { data: await contacts.members(callerOf(request), { listId, query, ...pageWindow(page) }) };
  });

  app.post(MEMBERS, { config: SEND }, async (request, reply) => {
    const { listId, ...input } = smsContactMemberCreateSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await contacts.addMember(callerOf(request), listId, input) });
  });

  app.put(`${MEMBERS}/:id`, { config: SEND }, async (request) => {
    const { id } = memberParam.parse(request.params);
    const input = smsContactMemberInputSchema.parse(request.body ?? {});
    return { data: await contacts.updateMember(callerOf(request), id, input) };
  });

  app.delete(`${MEMBERS}/:id`, { config: SEND }, async (request, reply) => {
    await contacts.removeMember(callerOf(request), memberParam.parse(request.params).id);
    return reply.status(204).send();
  });

  app.get(`${MEMBERS}/export`, { config: DOWNLOAD }, async (request, reply) => {
    const session = callerOf(request);
    const { listId } = listQuery.parse(request.query ?? {});
    await contacts.getList(session, listId);
    await core.sensitiveVerification.requireRecentVerification(session, { kind: 'download' });
    const { name, lines } = await contacts.exportMembers(session, listId, request.lang);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(Readable.from(lines));
  });

  listImportRoutes(app, core, {
    base: MEMBERS,
    access: PERMISSIONS.SMS_SEND,
    imports: core.smsContactImports,
    missing: 'SMS_CONTACT_IMPORT_MISSING',
    tooLarge: 'SMS_CONTACT_IMPORT_TOO_LARGE',
  });
}
