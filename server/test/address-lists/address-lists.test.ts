import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import * as XLSX from '@e965/xlsx';
import { type ListImportView, PERMISSIONS as P } from '@herald/shared';
import ExcelJS from 'exceljs';
import { AddressListImportsService } from '../../src/core/address-lists/address-list-imports.service.ts';
import { AddressListsService } from '../../src/core/address-lists/address-lists.service.ts';
import { createLogger } from '../../src/logger.ts';
import { QUEUES } from '../../src/queue/names.ts';
import { JOBS } from '../../src/worker/registry.ts';
import { injector } from '../api-users/fixtures.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { testDialect } from '../helpers/database.ts';
import { bearer, createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';
import { waitFor } from '../helpers/wait.ts';
import { multipartBody } from '../sms/sms-uploads.fixtures.ts';

const LISTS = '/v3/api/mail/mailingLists';
const MEMBERS = '/v3/api/mail/maillistSubInfos';
const DOMAIN = 'maillist.localhost';

interface ListView {
  id: number;
  name: string;
  address: string;
  memberCount: number;
  importing: boolean;
  varNames: string[];
}
interface MemberView {
  id: number;
  address: string;
  name: string;
  vars: Record<string, string>;
}

const SHEET_ROWS: string[][] = [
  ['email', 'name', 'city'],
  ['Ann@Example.org', 'Ann', 'Paris'],
  ['bob@example.org', 'Bob', ''],
  ['not-an-address', 'bad', ''],
  ['ann@example.org', 'again', ''],
];

async function xlsxOf(rows: string[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('list');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function xlsOf(rows: string[][]): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'list');
  return XLSX.write(book, { type: 'buffer', bookType: 'xls' }) as Buffer;
}

/**
 * Email address lists (issue 21): lists and members in the console, the file import of txt, csv,
 * xls and xlsx (the contact lists' machinery, counted, reported, all or nothing), paid accounts
 * only, tenancy and permissions, against a real Herald and a real worker on the system queue.
 */
describe(`Address lists in the console on ${testDialect}`, () => {
  let t: TestApp;
  let call: ReturnType<typeof injector>;
  let owner: SignedIn;
  let other: SignedIn;

  const setPlan = (who: SignedIn, plan: 'free' | 'paid') =>
    t.core.database.db.updateTable('accounts').set({ plan }).where('id', '=', who.ctx.accountId).execute();

  before(async () => {
    t = await buildTestApp();
    call = injector(t);
    owner = await createOwner(t, 'lists_owner');
    other = await createOwner(t, 'lists_other');
    await setPlan(owner, 'paid');
    await setPlan(other, 'paid');
    t.core.queue.work(QUEUES.system, async (job, signal) => {
      await JOBS.find((j) => j.name === job.name)?.handle(t.core, job.payload, signal);
    });
  });
  after(() => t?.close());

  const createList = async (name: string, prefix: string, who = owner) => {
    const res = await call('POST', LISTS, who, { name, prefix, description: `${name} list` });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data as ListView;
  };
  const getList = async (id: number) => (await call('GET', `${LISTS}/${id}`, owner)).json().data as ListView;
  const members = async (listId: number, query = '') => {
    const q = query ? `&query=${encodeURIComponent(query)}` : '';
    const res = await call('GET', `${MEMBERS}?listId=${listId}&pageSize=100${q}`, owner);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as { list: MemberView[]; total: number };
  };
  const upload = (listId: number, fileName: string, content: Buffer, who = owner, lang = 'en') => {
    const body = multipartBody(fileName, content);
    return t.app.inject({
      method: 'POST',
      url: `${LISTS}/upload?listId=${listId}`,
      headers: { ...bearer(who.token), ...body.headers, lang },
      payload: body.payload,
    });
  };
  const imported = async (listId: number, fileName: string, content: Buffer, lang = 'en') => {
    const res = await upload(listId, fileName, content, owner, lang);
    assert.equal(res.statusCode, 201, res.body);
    const id = (res.json().data as ListImportView).id;
    return waitFor(
      `import ${id} to end`,
      async () => {
        const p = (
          await call('GET', `${LISTS}/upload/progress?importId=${id}`, owner, undefined, lang)
        ).json().data as ListImportView;
        return ['done', 'failed', 'cancelled'].includes(p.status) ? p : undefined;
      },
      { timeoutMs: 60_000 },
    );
  };
  const reportOf = async (importId: number) => {
    const res = await call('GET', `${LISTS}/upload/${importId}/report`, owner);
    assert.equal(res.statusCode, 200, res.body);
    return res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
  };

  it('is for paid accounts: a free one is told so and refused', async () => {
    const free = await createOwner(t, 'lists_free');
    const page = await call('GET', LISTS, free);
    assert.equal(page.statusCode, 200);
    assert.deepEqual(page.json().data, { list: [], total: 0, domain: DOMAIN, paid: false });
    const refused = await call('POST', LISTS, free, { name: 'x', prefix: 'free_x' }, 'zh-cn');
    assert.deepEqual(
      [refused.statusCode, refused.json().code, refused.json().error],
      [403, 'ADDRESS_LIST_PAID_ONLY', '该功能仅对付费用户开放'],
    );
  });

  it('creates, finds, changes and deletes lists; an alias is unique on the platform', async () => {
    const list = await createList('Newsletter', 'News_Letter');
    assert.deepEqual(
      [list.address, list.memberCount, list.importing, list.varNames],
      [`news_letter@${DOMAIN}`, 0, false, []],
    );
    const page = (await call('GET', `${LISTS}?name=letter`, owner)).json().data;
    assert.deepEqual(
      [page.domain, page.paid, page.list.map((l: ListView) => l.name)],
      [DOMAIN, true, ['Newsletter']],
    );
    const taken = await call('POST', LISTS, other, { name: 'mine', prefix: 'NEWS_letter' }, 'en');
    assert.deepEqual([taken.statusCode, taken.json().code], [422, 'ADDRESS_LIST_ADDRESS_TAKEN']);
    const badPrefix = await call('POST', LISTS, owner, { name: 'x', prefix: 'has-dash' });
    assert.equal(badPrefix.statusCode, 400);
    assert.equal(
      badPrefix.json().fields[0].message,
      'The alias prefix is 1-48 letters, digits or underscores',
    );

    const changed = await call('PUT', `${LISTS}/${list.id}`, owner, {
      name: 'Weekly',
      prefix: 'weekly',
      description: 'd',
    });
    assert.deepEqual([changed.json().data.name, changed.json().data.address], ['Weekly', `weekly@${DOMAIN}`]);
    assert.equal(
      (await call('POST', MEMBERS, owner, { listId: list.id, address: 'a@example.org' })).statusCode,
      201,
    );
    assert.equal((await call('DELETE', `${LISTS}/${list.id}`, owner)).statusCode, 204);
    const gone = await call('GET', `${LISTS}/${list.id}`, owner);
    assert.deepEqual([gone.statusCode, gone.json().error], [404, 'The address list does not exist']);
    await waitFor('the deleted list purged', async () => {
      const left = await t.core.database.db
        .selectFrom('address_list_members')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('list_id', '=', list.id)
        .executeTakeFirstOrThrow();
      return Number(left.n) === 0;
    });
    // The alias is free again.
    await createList('Again', 'news_letter');
  });

  it('adds, finds, edits and deletes members, keeping the count in step', async () => {
    const list = await createList('Members', 'members_list');
    const added = await call('POST', MEMBERS, owner, {
      listId: list.id,
      address: ' Li.Lei@Example.COM ',
      name: '李雷',
      vars: { money: '100' },
    });
    assert.equal(added.statusCode, 201, added.body);
    const member = added.json().data as MemberView;
    assert.deepEqual(
      [member.address, member.name, member.vars],
      ['li.lei@example.com', '李雷', { money: '100' }],
    );
    const again = await call(
      'POST',
      MEMBERS,
      owner,
      { listId: list.id, address: 'LI.LEI@example.com' },
      'zh-cn',
    );
    assert.deepEqual([again.statusCode, again.json().error], [422, '地址li.lei@example.com已在该列表中']);
    const bad = await call('POST', MEMBERS, owner, { listId: list.id, address: 'nope' });
    assert.deepEqual([bad.statusCode, bad.json().fields[0].message], [400, 'Invalid email format']);
    const tooMany = await call('POST', MEMBERS, owner, {
      listId: list.id,
      address: 'x@example.com',
      vars: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`v${i}`, 'x'])),
    });
    assert.equal(tooMany.json().fields[0].message, 'At most 10 custom variables');
    await call('POST', MEMBERS, owner, { listId: list.id, address: 'han@example.com', name: 'Han' });
    assert.deepEqual(
      [(await getList(list.id)).memberCount, (await getList(list.id)).varNames],
      [2, ['money']],
    );
    assert.deepEqual(
      (await members(list.id, 'han')).list.map((m) => m.address),
      ['han@example.com'],
    );
    const edited = await call('PUT', `${MEMBERS}/${member.id}`, owner, {
      address: 'li.lei@example.com',
      name: 'Li Lei',
      vars: { money: '200' },
    });
    assert.deepEqual([edited.statusCode, edited.json().data.vars], [200, { money: '200' }]);
    const clash = await call('PUT', `${MEMBERS}/${member.id}`, owner, { address: 'han@example.com' });
    assert.equal(clash.json().code, 'ADDRESS_MEMBER_EXISTS');
    assert.equal((await call('DELETE', `${MEMBERS}/${member.id}`, owner)).statusCode, 204);
    assert.equal((await call('DELETE', `${MEMBERS}/${member.id}`, owner)).statusCode, 404);
    assert.deepEqual([(await members(list.id)).total, (await getList(list.id)).memberCount], [1, 1]);
  });

  it("another account's lists, members and imports are a 404; code 12 is needed, downloads need full access", async () => {
    const list = await createList('Private', 'private_list');
    const member = (await call('POST', MEMBERS, owner, { listId: list.id, address: 'p@example.org' })).json()
      .data as MemberView;
    const done = await imported(list.id, 'p.csv', Buffer.from('q@example.org\nbroken\n'));
    for (const [method, url, body] of [
      ['GET', `${LISTS}/${list.id}`],
      ['PUT', `${LISTS}/${list.id}`, { name: 'stolen', prefix: 'stolen' }],
      ['DELETE', `${LISTS}/${list.id}`],
      ['GET', `${LISTS}/${list.id}/download`],
      ['GET', `${MEMBERS}?listId=${list.id}`],
      ['POST', MEMBERS, { listId: list.id, address: 'r@example.org' }],
      ['PUT', `${MEMBERS}/${member.id}`, { address: 'p@example.org', name: 'x' }],
      ['DELETE', `${MEMBERS}/${member.id}`],
      ['GET', `${LISTS}/upload/progress?importId=${done.id}`],
      ['GET', `${LISTS}/upload/progress?listId=${list.id}`],
      ['POST', `${LISTS}/upload/${done.id}/cancel`],
      ['GET', `${LISTS}/upload/${done.id}/report`],
    ] as const) {
      const res = await call(method, url, other, body);
      assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
    }
    assert.equal((await upload(list.id, 'x.csv', Buffer.from('s@example.org\n'), other)).statusCode, 404);

    const reader = await joinedMember(t, owner, 'lists_reader', {
      type: 'custom',
      levels: { [P.EMAIL_SEND]: 'read' },
    });
    assert.equal((await call('GET', LISTS, reader)).statusCode, 200);
    assert.equal((await call('GET', `${MEMBERS}?listId=${list.id}`, reader)).statusCode, 200);
    assert.equal((await call('POST', LISTS, reader, { name: 'nope', prefix: 'nope' })).statusCode, 403);
    assert.equal((await call('GET', `${LISTS}/${list.id}/download`, reader)).statusCode, 403);
    assert.equal((await upload(list.id, 'r.csv', Buffer.from('t@example.org\n'), reader)).statusCode, 403);
    const texter = await joinedMember(t, owner, 'lists_texter', {
      type: 'custom',
      levels: { [P.SMS_SEND]: 'full' },
    });
    assert.equal((await call('GET', LISTS, texter)).statusCode, 403);
  });

  it('imports a csv with a header: invalid, repeated and known addresses counted and reported', async () => {
    const list = await createList('CSV import', 'csv_import');
    await call('POST', MEMBERS, owner, { listId: list.id, address: 'known@example.org', name: 'known' });
    const csv = [
      'email,name,%money%,level',
      'ann@example.org,"Ann, A.",100,gold',
      'BOB@example.org,Bob,,',
      '',
      'not an address,bad,,',
      'Ann@Example.org,twice,,',
      'known@example.org,already,,',
      'cy@example.org,too many,1,2,3',
    ].join('\r\n');
    const done = await imported(list.id, 'list.csv', Buffer.from(csv), 'zh-cn');
    assert.equal(done.status, 'done', JSON.stringify(done));
    assert.deepEqual(
      [done.rows, done.added, done.duplicates, done.invalid, done.bytesRead, done.hasReport],
      [6, 2, 2, 2, done.bytesTotal, true],
    );
    const after = await getList(list.id);
    assert.deepEqual([after.memberCount, after.importing, after.varNames], [3, false, ['money', 'level']]);
    assert.deepEqual(
      (await members(list.id)).list.map((m) => [m.address, m.name, m.vars]),
      [
        ['ann@example.org', 'Ann, A.', { money: '100', level: 'gold' }],
        ['bob@example.org', 'Bob', {}],
        ['known@example.org', 'known', {}],
      ],
    );
    assert.deepEqual(await reportOf(done.id), [
      '行号,内容,原因',
      '5,"not an address,bad,,",邮件地址格式错误',
      '6,"Ann@Example.org,twice,,",文件中地址重复',
      '7,known@example.org,地址已在列表中',
      '8,"cy@example.org,too many,1,2,3",最多10个自定义变量',
    ]);
  });

  it('imports a txt without a header, an xlsx and an xls, each with a bad line', async () => {
    const txtList = await createList('TXT import', 'txt_import');
    const fromTxt = await imported(
      txtList.id,
      'list.txt',
      Buffer.from('a@example.org\tA\tx\nb@example.org\nb@\n'),
    );
    assert.deepEqual([fromTxt.status, fromTxt.added, fromTxt.invalid], ['done', 2, 1]);
    assert.deepEqual(
      (await members(txtList.id)).list.map((m) => [m.address, m.vars]),
      [
        ['a@example.org', { var1: 'x' }],
        ['b@example.org', {}],
      ],
    );
    for (const [name, content] of [
      ['sheet.xlsx', await xlsxOf(SHEET_ROWS)],
      ['sheet.xls', xlsOf(SHEET_ROWS)],
    ] as const) {
      const list = await createList(`Sheet ${name}`, `sheet_${name.replace('.', '_')}`);
      const done = await imported(list.id, name, content);
      assert.deepEqual(
        [done.status, done.rows, done.added, done.duplicates, done.invalid],
        ['done', 4, 2, 1, 1],
        `${name}: ${JSON.stringify(done)}`,
      );
      assert.deepEqual(
        (await members(list.id)).list.map((m) => [m.address, m.name, m.vars]),
        [
          ['ann@example.org', 'Ann', { city: 'Paris' }],
          ['bob@example.org', 'Bob', {}],
        ],
        name,
      );
      assert.deepEqual((await reportOf(done.id)).slice(1), [
        '4,"not-an-address,bad",Invalid email format',
        '5,"ann@example.org,again",The address appears earlier in the file',
      ]);
    }
  });

  it('refuses files it cannot take and leaves the list as it was when a file breaks', async () => {
    const list = await createList('Refusals', 'refusals');
    await call('POST', MEMBERS, owner, { listId: list.id, address: 'before@example.org' });
    for (const [name, content, code] of [
      ['list.pdf', Buffer.from('%PDF-1.4'), 'ADDRESS_LIST_IMPORT_FORMAT'],
      ['list.xlsx', Buffer.from('a@example.org\n'), 'ADDRESS_LIST_IMPORT_FORMAT'],
      ['empty.csv', Buffer.alloc(0), 'ADDRESS_LIST_IMPORT_EMPTY'],
    ] as const) {
      const res = await upload(list.id, name, content);
      assert.deepEqual([res.statusCode, res.json().code], [400, code], name);
    }
    const header = await imported(list.id, 'h.csv', Buffer.from('email,name,城市\nx@example.org,x,y\n'));
    assert.deepEqual([header.status, header.errorCode], ['failed', 'ADDRESS_LIST_IMPORT_HEADER']);
    const good = await xlsxOf([['c@example.org'], ['d@example.org']]);
    const broken = Buffer.concat([good.subarray(0, Math.floor(good.length * 0.6)), Buffer.alloc(64, 7)]);
    const corrupt = await imported(list.id, 'broken.xlsx', broken, 'zh-cn');
    assert.deepEqual([corrupt.status, corrupt.error], ['failed', '上传文件无效，请重新上传']);
    assert.deepEqual(
      (await members(list.id)).list.map((m) => m.address),
      ['before@example.org'],
    );
    assert.equal((await getList(list.id)).memberCount, 1);
  });

  it('exports the members as CSV with a header naming the variables', async () => {
    const list = await createList('Export', 'export_list');
    await call('POST', MEMBERS, owner, {
      listId: list.id,
      address: 'b@example.org',
      name: 'B',
      vars: { code: '=1+1' },
    });
    await call('POST', MEMBERS, owner, { listId: list.id, address: 'a@example.org', name: 'A, first' });
    const res = await call('GET', `${LISTS}/${list.id}/download`, owner, undefined, 'zh-cn');
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.headers['content-disposition'] as string, /filename="address-list-\d+\.csv"/);
    assert.deepEqual(res.body.split('\r\n'), [
      '\uFEFF邮件地址,姓名,code',
      'a@example.org,"A, first",',
      "b@example.org,B,'=1+1",
      '',
    ]);
  });
});

/** The limits, driven through services with a lowered cap (a million would take too long here). */
describe(`Address list limits on ${testDialect}`, () => {
  let t: TestApp;
  let owner: SignedIn;
  let lists: AddressListsService;
  let imports: AddressListImportsService;
  const MAX = 3;

  before(async () => {
    t = await buildTestApp();
    owner = await createOwner(t, 'capped_lists');
    await t.core.database.db
      .updateTable('accounts')
      .set({ plan: 'paid' })
      .where('id', '=', owner.ctx.accountId)
      .execute();
    const { database, queue } = t.core;
    lists = new AddressListsService({ database, queue, domain: DOMAIN, maxMembers: MAX });
    imports = new AddressListImportsService({
      database,
      queue,
      dataDir: t.core.config.dataDir,
      logger: createLogger({ level: 'silent', roles: new Set() }),
      maxMembers: MAX,
      batchRows: 2,
    });
  });
  after(() => t?.close());

  const member = (address: string) => ({ address, name: '', vars: {} });

  it('refuses members past the cap, one by one and in a batch, and an import past it leaves no trace', async () => {
    const list = await lists.createList(owner.ctx, { name: 'capped', prefix: 'capped', description: '' });
    await lists.addMembers(owner.ctx, list.id, [member('a@x.org'), member('b@x.org')], { upsert: false });
    await assert.rejects(
      lists.addMembers(owner.ctx, list.id, [member('c@x.org'), member('d@x.org')], { upsert: false }),
      { code: 'ADDRESS_LIST_FULL' },
    );
    assert.equal((await lists.getList(owner.ctx, list.id)).memberCount, 2);
    const started = await imports.start(owner.ctx, {
      listId: list.id,
      fileName: 'l.csv',
      content: Readable.from([Buffer.from('c@x.org\nd@x.org\ne@x.org\n')]),
      lang: 'en',
    });
    await imports.run(started.id, new AbortController().signal);
    const view = await imports.progress(owner.ctx, { importId: started.id }, 'en');
    assert.deepEqual([view?.status, view?.error], ['failed', 'An address list holds at most 3 addresses']);
    const page = await lists.members(owner.ctx, { listId: list.id, offset: 0, limit: 10 });
    assert.deepEqual(
      page.list.map((m) => m.address),
      ['a@x.org', 'b@x.org'],
    );
  });

  it('cleans lists with no members idle for a year', async () => {
    const idle = await lists.createList(owner.ctx, { name: 'idle', prefix: 'idle_list', description: '' });
    await t.core.database.db
      .updateTable('address_lists')
      .set({ updated_at: Date.now() - 400 * 86_400_000 })
      .where('id', '=', idle.id)
      .execute();
    assert.ok((await lists.cleanIdle()) >= 1);
    await assert.rejects(lists.getList(owner.ctx, idle.id), { code: 'ADDRESS_LIST_NOT_FOUND' });
  });
});
