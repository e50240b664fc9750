import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AppError } from '@herald/shared';
import { params, t as text } from '../../src/http/apiv2/apiv2-docs.ts';
import { createAccount, createApiKey, createApiUser } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

/**
 * The /apiv2 adapter on its own, with a test area: SendCloud's envelope on success and failure,
 * parameters from the query, a form body or multipart, and API_USER authentication with a key
 * that is valid, expired (a reset's grace period is over) or wrong.
 */
describe('SendCloud-compatible adapter', () => {
  let t: TestApp;
  const key = 'k'.repeat(43);
  const oldKey = 'o'.repeat(43);

  before(async () => {
    t = await buildTestApp({
      apiv2Areas: [
        (action) => {
          const docs = { summary: text('测试', 'Test'), params: params() };
          action('test/echo', docs, async ({ caller, params }) => ({
            apiUser: caller.apiUser.name,
            x: params.fields.x,
            files: params.files.length,
          }));
          action('test/fail', docs, async () => {
            throw new AppError('API_AUTH_FAILED');
          });
        },
      ],
    });
    const accountId = await createAccount(t.core.database, { username: 'apiv2owner' });
    const apiUser = await createApiUser(t.core.database, accountId, { name: 'apiv2_user', apiKey: key });
    await createApiKey(t.core.database, accountId, apiUser.id, { apiKey: oldKey, expiresAt: Date.now() - 1 });
  });
  after(() => t?.close());

  it('answers the envelope with the handler info for a valid key, by GET query and by form POST', async () => {
    const query = await t.app.inject({
      method: 'GET',
      url: `/apiv2/test/echo?apiUser=apiv2_user&apiKey=${key}&x=1`,
    });
    assert.equal(query.statusCode, 200);
    assert.deepEqual(query.json(), {
      result: true,
      statusCode: 200,
      message: '请求成功',
      info: { apiUser: 'apiv2_user', x: '1', files: 0 },
    });
    const form = await t.app.inject({
      method: 'POST',
      url: '/apiv2/test/echo',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' },
      payload: new URLSearchParams({ apiUser: 'apiv2_user', apiKey: key, x: '2' }).toString(),
    });
    assert.deepEqual(form.json(), {
      result: true,
      statusCode: 200,
      message: 'success',
      info: { apiUser: 'apiv2_user', x: '2', files: 0 },
    });
  });

  it('reads multipart fields and files', async () => {
    const body = new FormData();
    body.set('apiUser', 'apiv2_user');
    body.set('apiKey', key);
    body.set('x', '3');
    body.set('attachments', new Blob(['hello']), 'a.txt');
    const request = new Request('http://x/', { method: 'POST', body });
    const response = await t.app.inject({
      method: 'POST',
      url: '/apiv2/test/echo',
      headers: { 'content-type': request.headers.get('content-type') ?? '' },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    assert.deepEqual(response.json().info, { apiUser: 'apiv2_user', x: '3', files: 1 });
  });

  it('refuses a wrong, missing or expired key with 40005 in the caller language', async () => {
    for (const apiKey of ['wrong', '', oldKey]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/apiv2/test/echo',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' },
        payload: new URLSearchParams({ apiUser: 'apiv2_user', apiKey }).toString(),
      });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), {
        result: false,
        statusCode: 40005,
        message: 'Authentication failed',
        info: {},
      });
    }
  });

  it('maps a core error to its SendCloud number', async () => {
    const failed = await t.app.inject({
      method: 'GET',
      url: `/apiv2/test/fail?apiUser=apiv2_user&apiKey=${key}`,
    });
    assert.equal(failed.json().statusCode, 40005);
    assert.equal(failed.json().message, '认证失败');
  });

  it('matches action paths whatever their case, and leaves the query as sent', async () => {
    for (const path of ['test/echo', 'Test/Echo', 'TEST/ECHO', 'test/eCHo']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/apiv2/${path}?apiUser=apiv2_user&apiKey=${key}&x=MiXeD`,
      });
      assert.equal(res.statusCode, 200, path);
      assert.deepEqual(res.json().info, { apiUser: 'apiv2_user', x: 'MiXeD', files: 0 }, path);
    }
  });

  it('answers an unknown or misspelled action with HTTP 200 and an envelope, in the caller language', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await t.app.inject({
        method,
        url: '/apiv2/mail/sned?apiUser=apiv2_user',
        headers: { lang: 'en' },
      });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), {
        result: false,
        statusCode: 404,
        message: 'No such API action: mail/sned',
        info: {},
      });
    }
    const zh = await t.app.inject({ method: 'POST', url: '/apiv2/nothing' });
    assert.equal(zh.json().message, '接口不存在：nothing');
    const console = await t.app.inject({ method: 'GET', url: '/v3/api/nothing' });
    assert.equal(console.statusCode, 404, 'the console API keeps its own 404');
  });
});
