import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ERRORS } from '@herald/shared';
import type { InjectOptions } from 'fastify';
import { createSender, type Sender } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, createOwner, type SignedIn } from '../helpers/members.ts';

/**
 * Malformed input on every route of the route table, console (`/v3`) and SendCloud API
 * (`/apiv2`): missing and wrong-typed fields, odd path parameters, huge strings, deeply nested
 * JSON, broken JSON, bad multipart and invalid UTF-8. Whatever the route, the answer is a refusal
 * (or a success), never a 5xx, and never SendCloud's 501 ("server error") in an envelope. The one
 * kind of 5xx that is an answer, not a failure, is a declared state of a dependency (a 502 or 503
 * code of the error catalogue: WeChat login not set up here, a provider unreachable). Console
 * routes are called as a signed-in owner, API routes with a valid API_USER and key, so the input
 * gets past authentication to the validation it is meant to test.
 */

const JUNK_FIELDS = {
  id: 'abc',
  ids: 'x,,;1e999',
  name: { $gt: '' },
  params: [1, [2]],
  start: -1,
  limit: 'all',
  page: 1e308,
  email: 12,
  status: true,
  to: ['a', { b: 1 }],
  from: null,
  domain: '..',
  type: '\u0000',
  startDate: '2026-13-45',
  endDate: 'yesterday',
  labelId: -0,
};

/** The catalogue's 502/503 codes: a dependency's state (not configured, unreachable), told as such. */
const DEPENDENCY_STATES = new Set(
  Object.entries(ERRORS)
    .filter(([, definition]) => definition.status === 502 || definition.status === 503)
    .map(([code]) => code),
);

const DEEP_ARRAY = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
const DEEP_OBJECT = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
const HUGE = 'a'.repeat(3_000_000);
const INVALID_UTF8 = Buffer.concat([
  Buffer.from('name='),
  Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xa0, 0xa1]),
  Buffer.from('&subject=%FF%FE&to=%C3%28'),
]);
const BAD_MULTIPART = [
  '--XYZ',
  'Content-Disposition: form-data; name="file"; filename="../../etc/passwd"',
  'Content-Type: application/octet-stream',
  '',
  'abc',
].join('\r\n');

interface Variant {
  name: string;
  pathValue?: string;
  request(credentials: Record<string, string>): Partial<InjectOptions>;
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };

const VARIANTS: Variant[] = [
  { name: 'nothing', request: (c) => ({ payload: form(c), headers: FORM }) },
  { name: 'an odd path value', pathValue: '99999999999999999999999', request: () => ({}) },
  { name: 'a negative path value', pathValue: '-1', request: () => ({}) },
  { name: 'a path value with NUL and dots', pathValue: '..%00%2F..', request: () => ({}) },
  {
    name: 'a junk query',
    request: (c) => ({
      query: {
        ...c,
        id: 'abc',
        start: '-5',
        limit: '99999999999',
        'params[a]': '1',
        x: '%FF%FE',
        days: 'NaN',
      },
    }),
  },
  {
    name: 'wrong-typed JSON fields',
    request: (c) => ({ payload: JSON.stringify({ ...c, ...JUNK_FIELDS }), headers: JSON_TYPE }),
  },
  {
    name: 'wrong-typed form fields',
    request: (c) => ({
      payload: form({ ...c, id: 'abc', ids: '[[', start: '-1', limit: '1e309', email: '@', to: ';;;' }),
      headers: FORM,
    }),
  },
  { name: 'JSON null', request: () => ({ payload: 'null', headers: JSON_TYPE }) },
  { name: 'a JSON string', request: () => ({ payload: '"x"', headers: JSON_TYPE }) },
  { name: 'broken JSON', request: () => ({ payload: '{"a":', headers: JSON_TYPE }) },
  { name: 'deeply nested arrays', request: () => ({ payload: DEEP_ARRAY, headers: JSON_TYPE }) },
  { name: 'deeply nested objects', request: () => ({ payload: DEEP_OBJECT, headers: JSON_TYPE }) },
  {
    name: 'a huge string',
    request: (c) => ({ payload: form({ ...c, name: HUGE, html: HUGE }), headers: FORM }),
  },
  { name: 'invalid UTF-8', request: () => ({ payload: INVALID_UTF8, headers: FORM }) },
  {
    name: 'bad multipart',
    request: () => ({
      payload: BAD_MULTIPART,
      headers: { 'content-type': 'multipart/form-data; boundary=XYZ' },
    }),
  },
  {
    name: 'an unknown content type',
    request: () => ({ payload: '<x/>', headers: { 'content-type': 'application/xml' } }),
  },
];

describe('fuzzing every route of the route table', () => {
  let t: TestApp;
  let owner: SignedIn;
  let sender: Sender;
  before(async () => {
    t = await buildTestApp();
    owner = await createOwner(t, 'fuzz_owner');
    sender = await createSender(t.core.database, { accountId: owner.ctx.accountId });
  });
  after(() => t?.close());

  it('answers malformed input with a refusal, never a 5xx or a SendCloud 501', {
    timeout: 600_000,
  }, async () => {
    const routes = t.routes.filter(
      (r) =>
        (r.url.startsWith('/v3') || r.url.startsWith('/apiv2')) &&
        r.method !== 'HEAD' &&
        r.method !== 'OPTIONS' &&
        // Ends the session this test calls with; fuzzed separately below.
        r.url !== '/v3/api/loginOut',
    );
    assert.ok(routes.length > 100, `${routes.length} routes`);
    const failures: string[] = [];
    let calls = 0;
    for (const route of routes) {
      const api = route.url.startsWith('/apiv2');
      const credentials: Record<string, string> = api
        ? { apiUser: sender.apiUser, apiKey: sender.apiKey }
        : {};
      await Promise.all(
        VARIANTS.map(async (variant) => {
          const url = route.url
            .replace(/:[A-Za-z]+/g, variant.pathValue ?? 'x')
            .replace(/\*$/, variant.pathValue ?? 'x');
          const extra = variant.request(credentials);
          const res = await t.app.inject({
            method: route.method as InjectOptions['method'],
            url,
            ...extra,
            headers: { ...(api ? {} : bearer(owner.token)), ...(extra.headers as Record<string, string>) },
          });
          calls += 1;
          let envelopeCode: unknown;
          if (api && res.headers['content-type']?.toString().includes('json')) {
            envelopeCode = (res.json() as { statusCode?: unknown }).statusCode;
          }
          const declared =
            (res.statusCode === 502 || res.statusCode === 503) &&
            DEPENDENCY_STATES.has(String((res.json() as { code?: unknown }).code));
          if ((res.statusCode >= 500 && !declared) || envelopeCode === 501) {
            failures.push(
              `${route.method} ${route.url} with ${variant.name}: ${res.statusCode} ${res.body.slice(0, 160)}`,
            );
          }
        }),
      );
    }
    const logout = await t.app.inject({
      method: 'POST',
      url: '/v3/api/loginOut',
      payload: DEEP_OBJECT,
      headers: JSON_TYPE,
    });
    if (logout.statusCode >= 500) failures.push(`POST /v3/api/loginOut with deep JSON: ${logout.statusCode}`);
    process.stderr.write(`fuzz: ${routes.length} routes, ${calls} calls\n`);
    assert.deepEqual(failures, []);
  });
});
