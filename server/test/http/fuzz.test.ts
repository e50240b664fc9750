import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ERRORS, formatMessage } from '@herald/shared';
import type { InjectOptions } from 'fastify';
import { V1_CALLS } from '../../src/http/webapi/webapi.calls.ts';
import { createSender, type Sender } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, createOwner, type SignedIn } from '../helpers/members.ts';

/**
 * Malformed input on every route of the route table, console (`/v3`) and SendCloud API
 * (`/apiv2`, and every call of the legacy `/webapi`): missing and wrong-typed fields, odd path
 * parameters, huge strings, JSON nested 100,000 deep, broken JSON, bad multipart and invalid
 * UTF-8; then uploads cut short on a real socket. Whatever the route, the answer is a refusal
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

const DEEP_ARRAY = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
const DEEP_OBJECT = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
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

  it("answers malformed input to every /webapi call with v1's error envelope, never a 5xx", {
    timeout: 600_000,
  }, async () => {
    const credentials = { api_user: sender.apiUser, api_key: sender.apiKey };
    const calls = [...Object.keys(V1_CALLS), 'nope.nothing', 'MAIL.SEND'];
    assert.ok(calls.length > 20, `${calls.length} v1 calls`);
    const failures: string[] = [];
    for (const call of calls) {
      for (const method of ['GET', 'POST'] as const) {
        await Promise.all(
          VARIANTS.map(async (variant) => {
            const format = variant.name === 'a junk query' ? 'xml' : 'json';
            const url = `/webapi/${variant.pathValue ?? call}.${format}`;
            const extra = variant.request(credentials);
            const res = await t.app.inject({ method, url, ...extra });
            const problem = v1Problem(res.statusCode, res.headers['content-type'], res.body, format);
            if (problem) failures.push(`${method} ${url} with ${variant.name}: ${problem}`);
          }),
        );
      }
    }
    assert.deepEqual(failures, []);
  });
});

/**
 * Uploads cut short on a real socket, the client's sending side ended: a multipart body whose
 * last part breaks off (a complete HTTP request), and an HTTP body that never arrives whole
 * (chunked without its last chunk, or short of its Content-Length: no route sees it, the API's
 * client-error answer does, http/plugins/api-client-errors.ts). Each gets the API's own refusal
 * (server/test/apiv2/cut-short-bodies.test.ts checks the wording per API). Its own app,
 * so the fuzzing's failed logins do not rate-limit the check that the server still serves.
 */
describe('uploads cut short', () => {
  let t: TestApp;
  let sender: Sender;
  before(async () => {
    t = await buildTestApp();
    const owner = await createOwner(t, 'cut_owner');
    sender = await createSender(t.core.database, { accountId: owner.ctx.accountId });
  });
  after(() => t?.close());

  it('refuses them (mid-part, mid-chunk, short of Content-Length), never a 5xx, and keeps serving', {
    timeout: 120_000,
  }, async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    assert.ok(address && typeof address === 'object');
    const port = address.port;
    const failures: string[] = [];
    const targets: { path: string; fields: Record<string, string> }[] = [
      { path: '/apiv2/mail/send', fields: { apiUser: sender.apiUser, apiKey: sender.apiKey } },
      { path: '/webapi/mail.send.json', fields: { api_user: sender.apiUser, api_key: sender.apiKey } },
    ];
    for (const { path, fields } of targets) {
      const body = cutMultipart({
        ...fields,
        from: `news@${sender.domain}`,
        to: 'ann@example.org',
        subject: 'cut',
        html: '<p>x</p>',
      });
      const head = (extra: string) =>
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\n${extra}\r\n`;
      const cases = [
        {
          name: 'a multipart body cut mid-part (Content-Length as sent), connection ended',
          bytes: Buffer.concat([Buffer.from(head(`Content-Length: ${body.length}\r\n`)), body]),
        },
        {
          name: 'a chunked body cut mid-chunk, connection ended',
          bytes: Buffer.concat([
            Buffer.from(head('Transfer-Encoding: chunked\r\n')),
            Buffer.from(`${(body.length + 5000).toString(16)}\r\n`),
            body,
          ]),
        },
        {
          name: 'a Content-Length longer than the body, connection ended',
          bytes: Buffer.concat([Buffer.from(head(`Content-Length: ${body.length + 5000}\r\n`)), body]),
        },
      ];
      for (const c of cases) {
        const response = await rawExchange(port, c.bytes);
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);
        if (!status) failures.push(`${path}, ${c.name}: no answer`);
        if (status >= 500) failures.push(`${path}, ${c.name}: ${response.slice(0, 200)}`);
        if (status) {
          const answer = response.slice(response.indexOf('\r\n\r\n') + 4);
          if (path.startsWith('/webapi')) {
            const problem = v1Problem(status, 'application/json', dechunk(answer), 'json');
            if (problem) failures.push(`${path}, ${c.name}: ${problem}`);
          } else {
            const envelope = JSON.parse(dechunk(answer)) as { result?: unknown; statusCode?: unknown };
            if (
              envelope.result !== false ||
              typeof envelope.statusCode !== 'number' ||
              envelope.statusCode === 501
            ) {
              failures.push(`${path}, ${c.name}: ${answer.slice(0, 200)}`);
            }
          }
        }
        const still = await fetch(`http://127.0.0.1:${port}/apiv2/userinfo/get`, {
          method: 'POST',
          body: new URLSearchParams({ apiUser: sender.apiUser, apiKey: sender.apiKey }),
        });
        const info = (await still.json()) as { statusCode?: number };
        if (still.status !== 200 || info.statusCode !== 200) {
          failures.push(`after ${path}, ${c.name}: the server answered ${still.status} ${info.statusCode}`);
        }
      }
    }
    assert.deepEqual(failures, []);
  });
});

/** COMMON_INTERNAL's message in each language: what a v1 failure says when it was a bug. */
const INTERNAL = new Set([formatMessage('COMMON_INTERNAL', 'zh-cn'), formatMessage('COMMON_INTERNAL', 'en')]);

/** What is wrong with a v1 answer (undefined: a 200 with `message` "success" or "error" and no bug). */
function v1Problem(
  status: number,
  contentType: unknown,
  body: string,
  format: 'json' | 'xml',
): string | undefined {
  if (status !== 200) return `HTTP ${status} ${body.slice(0, 160)}`;
  if (format === 'xml') {
    if (!String(contentType).includes('xml')) return `not XML: ${String(contentType)}`;
    const message = /<message>([^<]*)<\/message>/.exec(body)?.[1];
    if (message === 'success') return undefined;
    const error = /<errors><item>([^<]*)<\/item>/.exec(body)?.[1];
    if (message !== 'error' || error === undefined || INTERNAL.has(error)) return body.slice(0, 160);
    return undefined;
  }
  let parsed: { message?: unknown; errors?: unknown };
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    return `not JSON: ${body.slice(0, 160)}`;
  }
  if (parsed.message === 'success') return undefined;
  const errors = parsed.errors;
  if (
    parsed.message !== 'error' ||
    !Array.isArray(errors) ||
    typeof errors[0] !== 'string' ||
    INTERNAL.has(errors[0])
  ) {
    return body.slice(0, 160);
  }
  return undefined;
}

const BOUNDARY = 'cut-short-boundary';

/** Text fields, then a file part that breaks off in its content: no closing boundary. */
function cutMultipart(fields: Record<string, string>): Buffer {
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return Buffer.concat([
    Buffer.from(parts.join('')),
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="attachments"; filename="report.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
    ),
    Buffer.alloc(20_000, 0x41),
  ]);
}

/** Writes the bytes, ends the connection's sending side, and reads whatever comes back until it closes. */
function rawExchange(port: number, bytes: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: '127.0.0.1', port });
    const timer = setTimeout(() => socket.destroy(), 15_000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error) => {
      // The server may reset a connection whose request can never complete: no answer is an answer.
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.end(bytes);
  });
}

/** A chunked answer's content, or the answer as it is. */
function dechunk(body: string): string {
  if (!/^[0-9a-f]+\r\n/i.test(body)) return body;
  let out = '';
  let rest = body;
  for (;;) {
    const line = /^([0-9a-f]+)\r\n/i.exec(rest);
    const size = line ? Number.parseInt(line[1] ?? '0', 16) : 0;
    if (!line || size === 0) return out;
    out += rest.slice(line[0].length, line[0].length + size);
    rest = rest.slice(line[0].length + size + 2);
  }
}
