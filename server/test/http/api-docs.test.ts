import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PUBLIC } from '@herald/shared';
import { Validator } from '@seriousme/openapi-schema-validator';
import { V1_CALLS } from '../../src/http/webapi/webapi.calls.ts';
import { createAccount, createApiUser } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is loose JSON, read field by field in assertions
type Json = Record<string, any>;

const METHODS = ['get', 'post'] as const;

/**
 * The API documentation Herald serves at /docs/api/ (issue 16): OpenAPI 3.1 generated from the
 * schemas the /apiv2 actions validate with. The drift checks hold the document to the routes
 * Herald really registers: every action and every v1 call is documented, and nothing else is.
 */
describe('API documentation', () => {
  let t: TestApp;
  const docs: Record<string, Json> = {};

  before(async () => {
    t = await buildTestApp();
    for (const lang of ['zh-cn', 'en']) {
      const res = await t.app.inject({ method: 'GET', url: `/docs/api/openapi.${lang}.json` });
      assert.equal(res.statusCode, 200, res.body);
      docs[lang] = res.json();
    }
  });
  after(() => t?.close());

  it('documents every registered /apiv2 action, and only those', () => {
    const registered = new Set(
      t.routes.filter((r) => r.url.startsWith('/apiv2/') && r.method === 'GET').map((r) => r.url),
    );
    assert.ok(registered.has('/apiv2/mail/send'));
    for (const lang of ['zh-cn', 'en']) {
      const documented = new Set(Object.keys(docs[lang]?.paths).filter((p) => p.startsWith('/apiv2/')));
      assert.deepEqual([...documented].sort(), [...registered].sort(), lang);
    }
  });

  it('documents every registered /smsapi action with its SMS codes, and only those', () => {
    const registered = new Set(
      t.routes.filter((r) => r.url.startsWith('/smsapi/') && r.method === 'GET').map((r) => r.url),
    );
    assert.ok(registered.has('/smsapi/send'));
    for (const lang of ['zh-cn', 'en']) {
      const documented = new Set(Object.keys(docs[lang]?.paths).filter((p) => p.startsWith('/smsapi/')));
      assert.deepEqual([...documented].sort(), [...registered].sort(), lang);
    }
    const send = docs.en?.paths['/smsapi/send'].post;
    const form = send.requestBody.content['application/x-www-form-urlencoded'].schema;
    for (const name of ['smsUser', 'signature', 'templateId', 'phone', 'vars', 'sendRequestId']) {
      assert.ok(form.properties[name], `smsapi/send documents ${name}`);
    }
    assert.deepEqual([...form.required].sort(), ['phone', 'signature', 'smsUser', 'templateId']);
    const codes = send['x-sendcloud-status-codes'].map((c: { statusCode: number }) => c.statusCode);
    for (const code of [
      411, 412, 413, 421, 422, 431, 432, 433, 441, 461, 471, 472, 481, 482, 483, 496, 498, 601,
    ]) {
      assert.ok(codes.includes(code), `smsapi/send documents ${code}`);
    }
    assert.ok(!codes.includes(40001), 'no email credential codes on SMS calls');
  });

  it('documents every v1 call by its v1 name, and only those', () => {
    for (const lang of ['zh-cn', 'en']) {
      const documented = Object.keys(docs[lang]?.paths)
        .filter((p) => p.startsWith('/webapi/'))
        .map((p) => p.slice('/webapi/'.length).replace(/\.\{format\}$/, ''));
      assert.deepEqual(documented.sort(), Object.keys(V1_CALLS).sort(), lang);
    }
    const send = docs.en?.paths['/webapi/mail.send.{format}'].post;
    const form = send.requestBody.content['application/x-www-form-urlencoded'].schema;
    for (const v1 of ['api_user', 'api_key', 'fromname', 'x_smtpapi', 'resp_email_id', 'label']) {
      assert.ok(form.properties[v1], `v1 mail.send documents ${v1}`);
    }
  });

  it('is valid OpenAPI 3.1 in both languages, every operation with its answers', async () => {
    for (const lang of ['zh-cn', 'en']) {
      const doc = docs[lang] as Json;
      assert.match(doc.openapi, /^3\.1\.\d+$/);
      assert.ok(doc.info.title && doc.info.version);
      const validator = new Validator();
      const result = await validator.validate(structuredClone(doc));
      assert.equal(result.valid, true, `${lang}: ${JSON.stringify(result.errors)?.slice(0, 2000)}`);
      for (const [path, item] of Object.entries(doc.paths as Json)) {
        for (const method of METHODS) {
          assert.ok(item[method]?.responses?.['200'], `${lang} ${method} ${path} has its answer`);
        }
      }
    }
  });

  it('describes every parameter in both languages', () => {
    for (const path of Object.keys(docs.en?.paths)) {
      const described: Record<string, Map<string, string>> = {};
      for (const lang of ['zh-cn', 'en']) {
        const item = docs[lang]?.paths[path];
        const names = new Map<string, string>();
        for (const p of item.get.parameters) names.set(p.name, p.description);
        const form = item.post.requestBody.content['application/x-www-form-urlencoded'].schema;
        for (const [name, schema] of Object.entries(form.properties as Json))
          names.set(`form:${name}`, schema.description);
        for (const [name, text] of names)
          assert.ok(text?.trim(), `${lang} ${path} ${name} has a description`);
        described[lang] = names;
      }
      assert.deepEqual([...(described['zh-cn']?.keys() ?? [])], [...(described.en?.keys() ?? [])], path);
    }
    const from = (lang: string) =>
      docs[lang]?.paths['/apiv2/mail/send'].get.parameters.find((p: Json) => p.name === 'from').description;
    assert.match(from('zh-cn'), /发信人/);
    assert.match(from('en'), /Sender address/);
  });

  it('documents mail/send with its parameters, limits, attachments, answer and status codes', () => {
    const post = docs.en?.paths['/apiv2/mail/send'].post;
    const multipart = post.requestBody.content['multipart/form-data'].schema;
    assert.ok(multipart.properties.attachments, 'attachments are a multipart file field');
    assert.deepEqual(
      ['apiUser', 'apiKey', 'from', 'to', 'subject'].filter((n) => !multipart.required.includes(n)),
      [],
    );
    assert.match(multipart.properties.to.description, /at most 100/);
    const info = post.responses['200'].content['application/json'].schema.allOf[1].properties.info;
    assert.equal(info.properties.emailIdList.type, 'array');
    const codes = (post['x-sendcloud-status-codes'] as { statusCode: number }[]).map((c) => c.statusCode);
    for (const code of [40005, 40801, 40805, 40807, 40808, 40819]) assert.ok(codes.includes(code), `${code}`);
    assert.match(post.responses['200'].description, /\| 40807 \| There can be at most/);
    // GET takes the same parameters in the query.
    const query = docs.en?.paths['/apiv2/mail/send'].get.parameters.map((p: Json) => p.name);
    assert.ok(query.includes('xsmtpapi') && query.includes('apiKey'));
  });

  it('documents the list calls’ answers and data/emailStatus’s voList', () => {
    const infoOf = (path: string) =>
      docs.en?.paths[path].post.responses['200'].content['application/json'].schema.allOf[1].properties.info;
    for (const path of [
      '/apiv2/label/list',
      '/apiv2/bounce/list',
      '/apiv2/template/list',
      '/apiv2/openandclick/list',
    ]) {
      assert.equal(infoOf(path).properties.dataList.type, 'array', path);
    }
    const vo = infoOf('/apiv2/data/emailstatus').properties.voList.items;
    assert.ok(vo.properties.emailId && vo.properties.sendLog && vo.properties.statusNum);
  });

  it('answers with the code it documents when a call breaks a documented rule', async () => {
    const accountId = await createAccount(t.core.database, { username: 'docsowner' });
    await createApiUser(t.core.database, accountId, { name: 'docs_user', apiKey: 'd'.repeat(43) });
    const name = docs.en?.paths['/apiv2/apiuser/add'].get.parameters.find((p: Json) => p.name === 'name');
    assert.ok(name.schema.pattern, 'the name rule is in the document');
    const documented = docs.en?.paths['/apiv2/apiuser/add'].get['x-sendcloud-status-codes'] as Json[];
    const res = await t.app.inject({
      method: 'POST',
      url: '/apiv2/apiuser/add?lang=en',
      payload: {
        apiUser: 'docs_user',
        apiKey: 'd'.repeat(43),
        name: 'x!',
        emailType: '0',
        domainName: 'a.test',
      },
    });
    const body = res.json();
    assert.equal(body.result, false);
    assert.ok(
      documented.some((c) => c.statusCode === body.statusCode && c.message === body.message),
      `${JSON.stringify(body)} is documented`,
    );
  });

  it('serves both languages at stable URLs and by ?lang=, publicly', async () => {
    const byQuery = await t.app.inject({ method: 'GET', url: '/docs/api/openapi.json?lang=en' });
    assert.deepEqual(byQuery.json(), docs.en);
    assert.equal(docs['zh-cn']?.info.title, 'Herald API 文档');
    assert.equal(docs.en?.info.title, 'Herald API reference');
    const docRoutes = t.routes.filter((r) => r.url.startsWith('/docs/api'));
    assert.ok(docRoutes.length > 0);
    assert.deepEqual(
      docRoutes.filter((r) => r.access !== PUBLIC),
      [],
    );
  });

  it('serves the viewer from Herald itself, with no inline script, under Herald’s CSP', async () => {
    const page = await t.app.inject({
      method: 'GET',
      url: '/docs/api/?lang=en',
      headers: { accept: 'text/html' },
    });
    assert.equal(page.statusCode, 200);
    assert.match(page.headers['content-type'] as string, /text\/html/);
    assert.match(page.headers['content-security-policy'] as string, /script-src 'self'(;|$)/);
    const scripts = [...page.body.matchAll(/<script([^>]*)>/g)].map((m) => m[1] ?? '');
    assert.ok(
      scripts.length > 0 && scripts.every((attrs) => /src="[^":]+"/.test(attrs)),
      'only local script files',
    );
    assert.doesNotMatch(page.body, /https?:\/\//);
    assert.match(page.body, /data-spec="\/docs\/api\/openapi\.en\.json"/);
    for (const [url, type] of [
      ['/docs/api/assets/swagger-ui-bundle.js', /javascript/],
      ['/docs/api/assets/swagger-ui.css', /css/],
      ['/docs/api/api-docs.js', /javascript/],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 200, url);
      assert.match(res.headers['content-type'] as string, type);
    }
    const init = await t.app.inject({ method: 'GET', url: '/docs/api/api-docs.js' });
    assert.match(init.body, /validatorUrl: null/);
    // Swagger UI's sample page (which loads a remote document) is not reachable.
    assert.equal((await t.app.inject({ method: 'GET', url: '/docs/api/assets/index.html' })).statusCode, 404);
    assert.equal(
      (await t.app.inject({ method: 'GET', url: '/docs/api/assets/swagger-initializer.js' })).statusCode,
      404,
    );
    const bare = await t.app.inject({ method: 'GET', url: '/docs/api' });
    assert.equal(bare.headers.location, '/docs/api/');
  });
});
