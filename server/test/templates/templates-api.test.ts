import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS as P, TEMPLATE_MAX } from '@herald/shared';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';
import { api, SAMPLE } from './template-helpers.ts';

/**
 * The console's template calls (console-spec §7 `/mail/templates`): every rule of product-spec
 * §5 with its message in both languages, the 50-template cap, copy, batch delete, html, all,
 * tenancy (another account's template is a 404) and the permission code 12.
 */
describe('email templates: console API', () => {
  let t: TestApp;
  let call: ReturnType<typeof api>;
  let owner: SignedIn;
  let other: SignedIn;

  before(async () => {
    t = await buildTestApp();
    call = api(t);
    owner = await createOwner(t, 'tpl_owner');
    other = await createOwner(t, 'tpl_other');
  });
  after(() => t.close());

  const create = (who: SignedIn, body: object, lang = 'en') =>
    call('POST', '/v3/api/mail/templates', who, { ...SAMPLE, ...body }, lang);

  it('creates a template, keeps the HTML as written and lists the %variables% it uses', async () => {
    const res = await create(owner, {});
    assert.equal(res.statusCode, 201, res.body);
    const data = res.json().data;
    assert.equal(data.status, 'unsubmitted');
    assert.equal(data.editor, 'richtext');
    assert.equal(data.html, SAMPLE.html, 'nothing is sanitised away');
    assert.deepEqual(data.variables, ['name', 'code']);
    assert.equal(data.design, null);

    const html = await call('GET', `/v3/api/mail/templates/html/${data.id}`, owner);
    assert.equal(html.statusCode, 200);
    assert.equal(html.json().data.html, SAMPLE.html);

    const list = await call('GET', '/v3/api/mail/templates?name=welcome', owner);
    assert.deepEqual(
      list.json().data.map((x: { invokeName: string }) => x.invokeName),
      ['welcome_mail_v1'],
    );
    const none = await call('GET', '/v3/api/mail/templates?status=passed', owner);
    assert.deepEqual(none.json().data, []);
    const all = await call('GET', '/v3/api/mail/templates/all', owner);
    assert.deepEqual(all.json().data, [
      {
        id: data.id,
        name: 'welcome_mail',
        invokeName: 'welcome_mail_v1',
        templateType: 'trigger',
        status: 'unsubmitted',
      },
    ]);
  });

  const cases: [string, object, string, string, string][] = [
    [
      'name with a hyphen',
      { name: 'bad-name' },
      'name',
      'The template name is at most 64 letters, digits or underscores',
      '模板名称最多64个字符，只能包含字母、数字和下划线',
    ],
    [
      'name of 65 characters',
      { name: 'a'.repeat(65) },
      'name',
      'The template name is at most 64 letters, digits or underscores',
      '模板名称最多64个字符，只能包含字母、数字和下划线',
    ],
    [
      'invoke name of 129 characters',
      { invokeName: 'b'.repeat(129) },
      'invokeName',
      'The invoke name is at most 128 letters, digits or underscores',
      '调用名称最多128个字符，只能包含字母、数字和下划线',
    ],
    [
      'invoke name with a dot',
      { invokeName: 'a.b' },
      'invokeName',
      'The invoke name is at most 128 letters, digits or underscores',
      '调用名称最多128个字符，只能包含字母、数字和下划线',
    ],
    [
      'unknown type',
      { templateType: 'marketing' },
      'templateType',
      'The template type must be batch or trigger',
      '模板类型只能是批量或触发',
    ],
    [
      'unknown editor',
      { editor: 'word' },
      'editor',
      'The editor must be rich text or drag-and-drop',
      '编辑器只能是富文本或拖拽',
    ],
    ['empty subject', { subject: '  ' }, 'subject', 'This field is required', '此项为必填项'],
    [
      'summary over 200 bytes',
      { summary: '摘'.repeat(67) },
      'summary',
      'The summary is at most 200 bytes',
      '摘要最多200字节',
    ],
    ['empty HTML', { html: ' ' }, 'html', 'This field is required', '此项为必填项'],
    [
      'a design that is not JSON',
      { editor: 'dragdrop', design: '{oops' },
      'design',
      'The drag-and-drop design is not valid',
      '拖拽编辑器的设计数据无效',
    ],
  ];
  for (const [label, body, field, en, zh] of cases) {
    it(`refuses ${label} with a message in both languages`, async () => {
      for (const [lang, message] of [
        ['en', en],
        ['zh-cn', zh],
      ] as const) {
        const res = await create(owner, { invokeName: 'rule_check', ...body }, lang);
        assert.equal(res.statusCode, 400, res.body);
        const fields = res.json().fields as { field: string; message: string }[];
        assert.ok(
          fields.some((f) => f.field === field && f.message === message),
          `${lang}: ${JSON.stringify(fields)}`,
        );
      }
    });
  }

  it('accepts a summary of exactly 200 bytes and a 64/128-character name and invoke name', async () => {
    const res = await create(owner, {
      name: 'n'.repeat(64),
      invokeName: 'i'.repeat(128),
      summary: 'x'.repeat(200),
    });
    assert.equal(res.statusCode, 201, res.body);
    await call('DELETE', `/v3/api/mail/templates/${res.json().data.id}`, owner);
  });

  it('keeps the design of a drag-and-drop template and drops it for rich text', async () => {
    const design = JSON.stringify({ pages: [{ component: 'x' }] });
    const drag = await create(owner, { invokeName: 'drag_one', editor: 'dragdrop', design });
    assert.equal(drag.statusCode, 201, drag.body);
    assert.equal(drag.json().data.design, design);
    const rich = await create(owner, { invokeName: 'rich_one', design });
    assert.equal(rich.json().data.design, null);
  });

  it("refuses a taken invoke name: 'invokeName is already existed'", async () => {
    for (const [lang, message] of [
      ['en', 'invokeName is already existed'],
      ['zh-cn', '调用名称已存在'],
    ] as const) {
      const res = await create(owner, {}, lang);
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().code, 'TEMPLATE_INVOKE_NAME_TAKEN');
      assert.equal(res.json().message, message);
    }
    const check = await call(
      'GET',
      '/v3/api/mail/templates/checkInvokeName?invokeName=welcome_mail_v1',
      owner,
    );
    assert.equal(check.json().data.exists, true);
    const free = await call('GET', '/v3/api/mail/templates/checkInvokeName?invokeName=unused_name', owner);
    assert.equal(free.json().data.exists, false);
    // Another account may use the same invoke name.
    const elsewhere = await create(other, {});
    assert.equal(elsewhere.statusCode, 201, elsewhere.body);
  });

  it('updates a template; renaming onto a taken invoke name is refused', async () => {
    const mine = await call('GET', '/v3/api/mail/templates', owner);
    const target = mine.json().data.find((x: { invokeName: string }) => x.invokeName === 'rich_one');
    const res = await call('PUT', `/v3/api/mail/templates/${target.id}`, owner, {
      ...SAMPLE,
      invokeName: 'rich_one',
      subject: 'Changed',
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.subject, 'Changed');
    const clash = await call('PUT', `/v3/api/mail/templates/${target.id}`, owner, { ...SAMPLE });
    assert.equal(clash.statusCode, 400);
    assert.equal(clash.json().code, 'TEMPLATE_INVOKE_NAME_TAKEN');
  });

  it('copies a template under a new invoke name, numbered when the copy name is taken', async () => {
    const list = (await call('GET', '/v3/api/mail/templates', owner)).json().data;
    const source = list.find((x: { invokeName: string }) => x.invokeName === 'welcome_mail_v1');
    const first = await call('POST', `/v3/api/mail/templates/copy/${source.id}`, owner);
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.json().data.invokeName, 'welcome_mail_v1_copy');
    assert.equal(first.json().data.name, 'welcome_mail_copy');
    assert.equal(first.json().data.html, SAMPLE.html);
    assert.equal(first.json().data.status, 'unsubmitted');
    const second = await call('POST', `/v3/api/mail/templates/copy/${source.id}`, owner);
    assert.equal(second.json().data.invokeName, 'welcome_mail_v1_copy2');
  });

  it("another account's template is not found, for every call", async () => {
    const theirs = (await call('GET', '/v3/api/mail/templates', other)).json().data[0];
    const id = theirs.id;
    const calls: [string, string, object?][] = [
      ['GET', `/v3/api/mail/templates/${id}`],
      ['GET', `/v3/api/mail/templates/html/${id}`],
      ['PUT', `/v3/api/mail/templates/${id}`, { ...SAMPLE, invokeName: 'stolen' }],
      ['POST', `/v3/api/mail/templates/copy/${id}`],
      ['POST', `/v3/api/mail/templates/commitVerify/${id}`],
      ['POST', `/v3/api/mail/templates/cancelVerify/${id}`],
      ['DELETE', `/v3/api/mail/templates/${id}`],
      ['POST', '/v3/api/mail/templates/batch/delete', { ids: [id] }],
    ];
    for (const [method, url, body] of calls) {
      const res = await call(method, url, owner, body);
      assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
    }
    const still = await call('GET', `/v3/api/mail/templates/${id}`, other);
    assert.equal(still.statusCode, 200);
    assert.equal(still.json().data.invokeName, 'welcome_mail_v1');
  });

  it('batch-deletes several templates; ids of another account are left alone', async () => {
    const mine = (await call('GET', '/v3/api/mail/templates', owner)).json().data as {
      id: number;
      invokeName: string;
    }[];
    const copies = mine.filter((x) => x.invokeName.includes('_copy')).map((x) => x.id);
    const theirs = (await call('GET', '/v3/api/mail/templates', other)).json().data[0].id;
    const res = await call('POST', '/v3/api/mail/templates/batch/delete', owner, {
      ids: [...copies, theirs],
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.count, 2);
    assert.equal((await call('GET', `/v3/api/mail/templates/${theirs}`, other)).statusCode, 200);
    const empty = await call('POST', '/v3/api/mail/templates/batch/delete', owner, { ids: [] });
    assert.equal(empty.statusCode, 400);
  });

  it('deletes one template (204), then it is gone', async () => {
    const created = await create(owner, { invokeName: 'to_delete' });
    const id = created.json().data.id;
    assert.equal((await call('DELETE', `/v3/api/mail/templates/${id}`, owner)).statusCode, 204);
    assert.equal((await call('GET', `/v3/api/mail/templates/${id}`, owner)).statusCode, 404);
  });

  it('needs code 12: a teammate without it gets 403, a read-only one may look but not change', async () => {
    const settingsOnly = await joinedMember(t, owner, 'tpl_settings', {
      type: 'custom',
      levels: { [P.EMAIL_SETTINGS]: 'full' },
    });
    const res = await call('GET', '/v3/api/mail/templates', settingsOnly);
    assert.equal(res.statusCode, 403);
    assert.equal((await create(settingsOnly, { invokeName: 'nope' })).statusCode, 403);
    const reader = await joinedMember(t, owner, 'tpl_reader', {
      type: 'custom',
      levels: { [P.EMAIL_SEND]: 'read' },
    });
    assert.equal((await call('GET', '/v3/api/mail/templates', reader)).statusCode, 200);
    assert.equal((await create(reader, { invokeName: 'nope' })).statusCode, 403);
    assert.equal((await call('GET', '/v3/api/mail/templates', null)).statusCode, 401);
  });

  it(`allows at most ${TEMPLATE_MAX} templates per account (SendCloud 40219)`, async () => {
    const fresh = await createOwner(t, 'tpl_many');
    for (let i = 0; i < TEMPLATE_MAX; i++) {
      const res = await create(fresh, { invokeName: `bulk_${i}` });
      assert.equal(res.statusCode, 201, res.body);
    }
    for (const [lang, message] of [
      ['en', 'At most 50 templates per account'],
      ['zh-cn', '模板个数最多为50个'],
    ] as const) {
      const res = await create(fresh, { invokeName: 'one_too_many' }, lang);
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().message, message);
    }
  });
});
