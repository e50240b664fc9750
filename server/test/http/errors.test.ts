import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AppError, PERMISSIONS, PUBLIC, registerSchema } from '@herald/shared';
import { z } from 'zod';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

describe('console API errors', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({
      authenticate: async (request) =>
        request.headers.authorization === 'Bearer viewer'
          ? { accountId: 1, userId: 1, permissions: new Set([PERMISSIONS.EMAIL_DATA]) }
          : null,
      prepare(app) {
        const body = z.object({ name: z.string().min(6).max(64), limit: z.coerce.number().int().max(10) });
        app.post('/v3/api/test/echo', { config: { access: PUBLIC } }, async (request, reply) => {
          const input = body.parse(request.body);
          return reply.status(201).send({ data: input });
        });
        app.post('/v3/api/test/register', { config: { access: PUBLIC } }, async (request) => {
          registerSchema.parse(request.body);
          return {};
        });
        app.get('/v3/api/test/missing', { config: { access: PUBLIC } }, async () => {
          throw new AppError('COMMON_NOT_FOUND', { entity: 'Domain' });
        });
        app.get('/v3/api/test/bug', { config: { access: PUBLIC } }, async () => {
          throw new Error('secret internal detail: password=hunter2');
        });
        app.get(
          '/v3/api/test/settings',
          { config: { access: PERMISSIONS.EMAIL_SETTINGS } },
          async () => ({}),
        );
        app.get('/v3/api/test/data', { config: { access: PERMISSIONS.EMAIL_DATA } }, async () => ({
          rows: [],
        }));
      },
    });
  });
  after(() => t.close());

  it('answers an unknown API path with a JSON 404 in Chinese by default', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v3/api/no/such/thing' });
    assert.equal(res.statusCode, 404);
    const body = res.json();
    assert.equal(body.code, 'COMMON_ROUTE_NOT_FOUND');
    assert.equal(body.message, '您访问的链接不存在');
    assert.equal(body.error, body.message);
    assert.ok(body.requestId);
  });

  it('speaks the caller language from Accept-Language, the lang header or ?lang=', async () => {
    for (const request of [
      { headers: { 'accept-language': 'en-US,en;q=0.9' }, url: '/v3/api/nope' },
      { headers: { lang: 'en' }, url: '/v3/api/nope' },
      { headers: {}, url: '/v3/api/nope?lang=en' },
    ]) {
      const res = await t.app.inject({ method: 'GET', ...request });
      assert.equal(res.json().message, 'The link you visited cannot be found');
    }
  });

  it('fills parameters of a core error', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v3/api/test/missing', headers: { lang: 'en' } });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().message, 'Domain not found');
  });

  it('rejects a malformed JSON body with 400, not 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v3/api/test/echo',
      headers: { 'content-type': 'application/json', lang: 'en' },
      payload: '{"name": "abc',
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 'COMMON_MALFORMED_BODY');
    assert.match(res.json().message, /^The request body is malformed/);
  });

  it('reports schema violations per field with 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v3/api/test/echo',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=abc&limit=99',
    });
    assert.equal(res.statusCode, 400);
    const body = res.json();
    assert.equal(body.code, 'COMMON_VALIDATION_FAILED');
    assert.equal(body.message, '输入的数据不合法');
    assert.deepEqual(
      body.fields.map((f: { field: string }) => f.field),
      ['name', 'limit'],
    );
  });

  it('words shared rule violations in the caller language', async () => {
    const payload =
      'userName=ab&password=Abcdef12&confirmPassword=Abcdef13&email=x@example.com&phone=13800138000&agreement=on';
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    const zh = (
      await t.app.inject({ method: 'POST', url: '/v3/api/test/register', headers, payload })
    ).json();
    assert.deepEqual(zh.fields, [
      { field: 'userName', message: '用户名为4-20位字母、数字或下划线', rule: 'userNameFormat' },
      { field: 'confirmPassword', message: '两次输入的密码不一致', rule: 'passwordMismatch' },
    ]);
    const en = await t.app.inject({
      method: 'POST',
      url: '/v3/api/test/register',
      headers: { ...headers, lang: 'en' },
      payload,
    });
    assert.equal(en.json().fields[1].message, 'The confirmation password differs');
  });

  it('accepts the console form encoding and answers 201', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v3/api/test/echo',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=herald_user&limit=5',
    });
    assert.equal(res.statusCode, 201);
    assert.deepEqual(res.json(), { data: { name: 'herald_user', limit: 5 } });
  });

  it('rejects an unsupported content type with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v3/api/test/echo',
      headers: { 'content-type': 'application/x-unknown' },
      payload: 'x',
    });
    assert.equal(res.statusCode, 415);
    assert.equal(res.json().code, 'COMMON_UNSUPPORTED_MEDIA_TYPE');
  });

  it('hides the details of a bug behind a generic 500', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v3/api/test/bug', headers: { lang: 'en' } });
    assert.equal(res.statusCode, 500);
    assert.equal(res.json().code, 'COMMON_INTERNAL');
    assert.doesNotMatch(res.body, /hunter2|secret internal/);
  });

  it('answers 401 without a session and 403 without the permission code', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/v3/api/test/data' });
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.json().code, 'AUTH_REQUIRED');
    const allowed = await t.app.inject({
      method: 'GET',
      url: '/v3/api/test/data',
      headers: { authorization: 'Bearer viewer' },
    });
    assert.equal(allowed.statusCode, 200);
    const denied = await t.app.inject({
      method: 'GET',
      url: '/v3/api/test/settings',
      headers: { authorization: 'Bearer viewer', lang: 'en' },
    });
    assert.equal(denied.statusCode, 403);
    assert.equal(denied.json().message, 'Insufficient permission, please contact your team administrator');
  });

  it('echoes a sane X-Request-Id and makes one up otherwise', async () => {
    const given = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'abc-123' },
    });
    assert.equal(given.headers['x-request-id'], 'abc-123');
    const made = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'bad id\n' },
    });
    assert.match(String(made.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });
});

describe('route table', () => {
  it('refuses to boot when an API route declares no access', async () => {
    await assert.rejects(
      buildTestApp({
        prepare(app) {
          app.get('/v3/api/test/forgotten', async () => ({}));
        },
      }),
      /declares no access/,
    );
  });

  it('gives every API route an access rule', async () => {
    const t = await buildTestApp();
    try {
      const api = t.routes.filter((r) => r.url.startsWith('/v3') || r.url.startsWith('/apiv2'));
      assert.deepEqual(
        api.filter((r) => r.access === undefined),
        [],
      );
    } finally {
      await t.close();
    }
  });
});
