import { Readable } from 'node:stream';
import {
  addressListIdSchema,
  addressListInputSchema,
  addressListQuerySchema,
  addressMemberCreateSchema,
  addressMemberIdSchema,
  addressMemberInputSchema,
  addressMemberQuerySchema,
  PERMISSIONS,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';
import { listImportRoutes } from './list-imports.routes.ts';

const SEND = { access: PERMISSIONS.EMAIL_SEND };
const LISTS = '/v3/api/mail/mailingLists';
const MEMBERS = '/v3/api/mail/maillistSubInfos';
const listParam = z.object({ id: addressListIdSchema });
const memberParam = z.object({ id: addressMemberIdSchema });
const page = (q: { pageNum: number; pageSize: number }) => ({
  offset: (q.pageNum - 1) * q.pageSize,
  limit: q.pageSize,
});

/**
 * Email address lists (console `/sendRelative/address` and `address/addressEdit`, code 12 as the
 * other email sending screens; console-spec §7 `/mail/mailingLists` with members, upload progress
 * and offline download, `/mail/maillistSubInfos`): lists with paging and a name-or-alias search,
 * one, create, change, delete; members of a list with an address-or-name search, add, edit,
 * delete; the file import and the CSV export. Paid accounts only: the list page tells a free one
 * so (`paid: false`), every other call answers 403.
 */
export function addressListsRoutes(app: FastifyInstance, core: Core): void {
  const lists = core.addressLists;

  app.get(LISTS, { config: SEND }, async (request) => {
    const query = addressListQuerySchema.parse(request.query ?? {});
    return { data: await lists.lists(callerOf(request), { name: query.name, ...page(query) }) };
  });

  app.get(`${LISTS}/:id`, { config: SEND }, async (request) => ({
    data: await lists.getList(callerOf(request), listParam.parse(request.params).id),
  }));

  app.post(LISTS, { config: SEND }, async (request, reply) => {
    const input = addressListInputSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await lists.createList(callerOf(request), input) });
  });

  app.put(`${LISTS}/:id`, { config: SEND }, async (request) => {
    const { id } = listParam.parse(request.params);
    const input = addressListInputSchema.parse(request.body ?? {});
    return { data: await lists.updateList(callerOf(request), id, input) };
  });

  app.delete(`${LISTS}/:id`, { config: SEND }, async (request, reply) => {
    await lists.removeList(callerOf(request), listParam.parse(request.params).id);
    return reply.status(204).send();
  });

  app.get(`${LISTS}/:id/download`, { config: { ...SEND, download: true } }, async (request, reply) => {
    const session = callerOf(request);
    const { id } = listParam.parse(request.params);
    await lists.getList(session, id);
    await core.sensitiveVerification.requireRecentVerification(session, { kind: 'download' });
    const { name, lines } = await lists.exportMembers(session, id, request.lang);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(Readable.from(lines));
  });

  app.get(MEMBERS, { config: SEND }, async (request) => {
    const { listId, query, ...paging } = addressMemberQuerySchema.parse(request.query ?? {});
    return { data: await lists.members(callerOf(request), { listId, query, ...page(paging) }) };
  });

  app.post(MEMBERS, { config: SEND }, async (request, reply) => {
    const { listId, ...input } = addressMemberCreateSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await lists.addMember(callerOf(request), listId, input) });
  });

  app.put(`${MEMBERS}/:id`, { config: SEND }, async (request) => {
    const { id } = memberParam.parse(request.params);
    const input = addressMemberInputSchema.parse(request.body ?? {});
    return { data: await lists.updateMember(callerOf(request), id, input) };
  });

  app.delete(`${MEMBERS}/:id`, { config: SEND }, async (request, reply) => {
    await lists.removeMember(callerOf(request), memberParam.parse(request.params).id);
    return reply.status(204).send();
  });

  listImportRoutes(app, core, {
    base: LISTS,
    access: PERMISSIONS.EMAIL_SEND,
    imports: core.addressListImports,
    missing: 'ADDRESS_LIST_IMPORT_MISSING',
    tooLarge: 'ADDRESS_LIST_IMPORT_TOO_LARGE',
  });
}
