import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ALL_PERMISSION_CODES,
  effectiveLevels,
  MEMBER_MAX,
  PERMISSIONS as P,
  PRESET_LEVELS,
  presetLevels,
  VALIDATION_MESSAGES,
} from '@herald/shared';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';

describe('member types, presets and the team limit', () => {
  let t: TestApp;
  let owner: SignedIn;
  before(async () => {
    t = await buildTestApp();
    owner = await createOwner(t, 'types_owner');
  });
  after(() => t.close());

  const api = (method: string, url: string, who: SignedIn, payload?: object, lang = 'en') =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { ...bearer(who.token), lang },
      ...(payload ? { payload } : {}),
    });
  let seq = 0;
  const invite = (access: object, lang = 'en', who = owner) =>
    api('POST', '/v3/api/user/member', who, { email: `types_${++seq}@example.com`, ...access }, lang);

  it('expands the presets as documented: developer, operation, finance', () => {
    assert.deepEqual(PRESET_LEVELS.developer, {
      [P.BACKEND]: 'read',
      [P.EMAIL_DATA]: 'read',
      [P.EMAIL_RESPONSE]: 'read',
      [P.EMAIL_SEND]: 'full',
      [P.EMAIL_SETTINGS]: 'full',
      [P.SMS_DATA]: 'read',
      [P.SMS_RESPONSE]: 'read',
      [P.SMS_SEND]: 'full',
      [P.SMS_SETTINGS]: 'full',
      [P.DASHBOARD]: 'read',
    });
    assert.equal(PRESET_LEVELS.operation[P.EMAIL_DATA], 'full');
    assert.equal(PRESET_LEVELS.operation[P.EMAIL_SETTINGS], 'read');
    assert.equal(PRESET_LEVELS.finance[P.BILL], 'full');
    assert.equal(PRESET_LEVELS.finance[P.EMAIL_SEND], undefined);
    for (const levels of Object.values(PRESET_LEVELS)) assert.equal(levels[P.TEAMMATES], undefined);
    // Together, the higher level wins per code.
    const both = presetLevels(['developer', 'operation']);
    assert.equal(both[P.EMAIL_DATA], 'full');
    assert.equal(both[P.EMAIL_SETTINGS], 'full');
    assert.equal(both[P.MESSAGE_CENTRE], 'full');
    assert.equal(both[P.FINANCE], undefined);
  });

  it('gives administrators every code at full and visitors every code at read', () => {
    assert.deepEqual(
      [...effectiveLevels('administrator').values()],
      ALL_PERMISSION_CODES.map(() => 'full'),
    );
    assert.deepEqual([...effectiveLevels('visitor').keys()], [...ALL_PERMISSION_CODES]);
    assert.ok([...effectiveLevels('visitor').values()].every((l) => l === 'read'));
    assert.equal(effectiveLevels('custom', { [P.TEAMMATES]: 'full' }).get(P.TEAMMATES), 'read');
  });

  it('stores a preset’s levels for an invited member and shows them in the menu', async () => {
    const res = await invite({ type: 'custom', roles: ['operation'] });
    assert.equal(res.statusCode, 201);
    const member = res.json().data;
    assert.deepEqual(member.roles, ['operation']);
    assert.deepEqual(member.levels, PRESET_LEVELS.operation);
    const detail = (await api('GET', `/v3/api/user/member/detail/${member.userId}`, owner)).json().data;
    assert.deepEqual(detail.levels, PRESET_LEVELS.operation);
    assert.equal(detail.type, 'custom');

    const dev = await joinedMember(t, owner, 'types_dev', { type: 'custom', roles: 'developer,finance' });
    const menu = (await api('GET', '/v3/api/user/member/permissions', dev)).json().data;
    assert.deepEqual(
      Object.fromEntries(menu.map((m: { code: number; level: string }) => [m.code, m.level])),
      presetLevels(['developer', 'finance']),
    );
  });

  it('takes explicit levels over presets, drops “none”, and ignores levels of other types', async () => {
    const custom = (
      await invite({ type: 'custom', roles: ['finance'], levels: { 10: 'read', 12: 'none' } })
    ).json().data;
    assert.deepEqual(custom.levels, { [P.EMAIL_DATA]: 'read' });
    const admin = (await invite({ type: 'administrator', roles: ['finance'], levels: { 10: 'read' } })).json()
      .data;
    assert.deepEqual(admin.roles, []);
    assert.equal(Object.keys(admin.levels).length, ALL_PERMISSION_CODES.length);
    assert.ok(Object.values(admin.levels).every((l) => l === 'full'));
  });

  it('lists the whole permission catalogue for the editor', async () => {
    const res = await api('GET', '/v3/api/user/member/permissions/all', owner);
    const all = res.json().data as { id: number; code: number; nameKey: string; adminOnly: boolean }[];
    assert.deepEqual(
      all.map((m) => m.code),
      [...ALL_PERMISSION_CODES].sort((a, b) => a - b),
    );
    assert.deepEqual(all[0], {
      id: 2,
      code: 2,
      nameKey: 'members.permission.teammates',
      group: 'account',
      adminOnly: true,
    });
    assert.ok(all.some((m) => m.nameKey === 'members.permission.emailData'));
    assert.ok(all.filter((m) => m.adminOnly).every((m) => m.code === P.TEAMMATES));
  });

  it('rejects bad access fields by rule, in both languages', async () => {
    const cases = [
      [{ type: 'owner' }, 'type', 'memberType'],
      [{ type: 'custom' }, 'levels', 'memberLevelsRequired'],
      [{ type: 'custom', levels: { 10: 'none' } }, 'levels', 'memberLevelsRequired'],
      [{ type: 'custom', levels: { 2: 'full' } }, 'levels.2', 'memberAdminOnly'],
      [{ type: 'custom', levels: { 8: 'read' } }, 'levels.8', 'memberFunctionUnknown'],
      [{ type: 'custom', levels: { 10: 'write' } }, 'levels.10', 'memberLevel'],
      [{ type: 'custom', roles: ['boss'] }, 'roles.0', 'memberPreset'],
    ] as const;
    for (const [access, field, rule] of cases) {
      for (const lang of ['zh-cn', 'en'] as const) {
        const res = await invite(access, lang);
        assert.equal(res.statusCode, 400, JSON.stringify(access));
        const problem = res.json().fields.find((f: { rule: string }) => f.rule === rule);
        assert.ok(problem, `${JSON.stringify(access)} → ${res.body}`);
        assert.equal(problem.field, field);
        assert.equal(problem.message, VALIDATION_MESSAGES[rule][lang]);
      }
    }
    const noType = await api('PATCH', '/v3/api/user/member', owner, { userId: 1, levels: { 10: 'read' } });
    assert.equal(noType.json().fields[0].rule, 'memberType');
  });

  it(`allows at most ${MEMBER_MAX} teammates and says so in both languages`, async () => {
    const team = await createOwner(t, 'types_full');
    for (let i = 0; i < MEMBER_MAX - 2; i++) {
      assert.equal((await invite({ type: 'visitor' }, 'en', team)).statusCode, 201);
    }
    // Three invitations racing for the last two seats.
    const racing = await Promise.all([1, 2, 3].map(() => invite({ type: 'visitor' }, 'en', team)));
    assert.deepEqual(racing.map((r) => r.statusCode).sort(), [201, 201, 422]);
    const zh = await invite({ type: 'visitor' }, 'zh-cn', team);
    assert.equal(zh.statusCode, 422);
    assert.equal(zh.json().code, 'MEMBER_LIMIT_REACHED');
    assert.equal(zh.json().message, `您已添加${MEMBER_MAX}位团队成员，已达上限`);
    const en = await invite({ type: 'visitor' }, 'en', team);
    assert.equal(en.json().message, `You have added ${MEMBER_MAX} teammates already, the maximum`);
    const list = (await api('GET', '/v3/api/user/member', team)).json().data;
    assert.equal(list.length, MEMBER_MAX);
    await api('DELETE', `/v3/api/user/member/${list[0].userId}`, team);
    assert.equal(
      (await invite({ type: 'visitor' }, 'en', team)).statusCode,
      201,
      'a removed member frees a seat',
    );
  });
});
