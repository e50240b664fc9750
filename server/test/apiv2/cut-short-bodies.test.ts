import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { formatMessage, type Lang } from '@herald/shared';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

/**
 * Bodies the server cannot read, sent on a raw socket to each SendCloud-compatible API: a body
 * short of its Content-Length with the connection ended (Node's parser gives up on it before any
 * route runs), a multipart body that breaks off, broken JSON, and a content type no parser takes.
 * Each API answers in its own envelope, HTTP 200, with the parameter-error code 400 and the reason
 * in the caller's language; never Fastify's own `{"error":"Bad Request"}`.
 */

interface RawResponse {
  status: number;
  headers: string;
  body: string;
}

const FORM = 'application/x-www-form-urlencoded';
const FIELDS = 'apiUser=someone&apiKey=secret&smsUser=someone&signature=x';

/** The request head of a POST to `path`; `length` is what the Content-Length header promises. */
function head(path: string, type: string, length: number, lang: Lang): string {
  return `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nlang: ${lang}\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n`;
}

const CASES = [
  {
    name: 'a body short of its Content-Length, connection ended',
    request: (path: string, lang: Lang) => head(path, FORM, FIELDS.length + 4000, lang) + FIELDS,
    reason: (lang: Lang) => formatMessage('COMMON_BODY_INCOMPLETE', lang),
  },
  {
    name: 'a multipart body that breaks off',
    request: (path: string, lang: Lang) => {
      const body = '--XYZ\r\nContent-Disposition: form-data; name="apiUser"\r\n\r\nsomeone';
      return head(path, 'multipart/form-data; boundary=XYZ', body.length, lang) + body;
    },
    reason: (lang: Lang) => formatMessage('COMMON_MALFORMED_BODY', lang, { detail: '' }),
  },
  {
    name: 'broken JSON',
    request: (path: string, lang: Lang) => `${head(path, 'application/json', 6, lang)}{"a":1`,
    reason: (lang: Lang) => formatMessage('COMMON_MALFORMED_BODY', lang, { detail: '' }),
  },
  {
    name: 'an unsupported content type',
    request: (path: string, lang: Lang) => `${head(path, 'application/xml', 4, lang)}<x/>`,
    reason: (lang: Lang) =>
      formatMessage('COMMON_UNSUPPORTED_MEDIA_TYPE', lang, { contentType: 'application/xml' }),
  },
];

describe('request bodies cut short or unreadable, on every SendCloud-compatible API', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await buildTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  after(() => t?.close());

  for (const lang of ['en', 'zh-cn'] as const) {
    it(`/apiv2 answers each with its envelope, statusCode 400 (${lang})`, async () => {
      for (const c of CASES) {
        const response = await exchange(port, c.request('/apiv2/mail/send', lang));
        assert.equal(response.status, 200, `${c.name}: ${response.body}`);
        const envelope = JSON.parse(response.body);
        assert.equal(envelope.result, false, c.name);
        assert.equal(envelope.statusCode, 400, c.name);
        assert.deepEqual(envelope.info, {}, c.name);
        assert.ok(envelope.message.startsWith(c.reason(lang)), `${c.name}: ${envelope.message}`);
      }
    });

    it(`/webapi answers each with v1's error envelope (${lang})`, async () => {
      for (const c of CASES) {
        const response = await exchange(port, c.request('/webapi/mail.send.json', lang));
        assert.equal(response.status, 200, `${c.name}: ${response.body}`);
        const answer = JSON.parse(response.body);
        assert.equal(answer.message, 'error', c.name);
        assert.equal(answer.errors.length, 1, c.name);
        assert.ok(answer.errors[0].startsWith(c.reason(lang)), `${c.name}: ${answer.errors[0]}`);
      }
    });

    it(`/smsapi answers each with the SMS API's envelope, statusCode 400 (${lang})`, async () => {
      for (const c of CASES) {
        const response = await exchange(port, c.request('/smsapi/send', lang));
        assert.equal(response.status, 200, `${c.name}: ${response.body}`);
        const envelope = JSON.parse(response.body);
        assert.equal(envelope.result, false, c.name);
        assert.equal(envelope.statusCode, 400, c.name);
        assert.ok(envelope.message.startsWith(c.reason(lang)), `${c.name}: ${envelope.message}`);
      }
    });
  }

  it('answers a cut-short /webapi call of the XML format in XML', async () => {
    const response = await exchange(port, CASES[0]?.request('/webapi/mail.send.xml', 'en') ?? '');
    assert.equal(response.status, 200, response.body);
    assert.match(response.headers, /content-type: application\/xml/i);
    assert.match(response.body, /<message>error<\/message>/);
    assert.ok(response.body.includes(formatMessage('COMMON_BODY_INCOMPLETE', 'en')), response.body);
  });

  it('still answers a console call cut short as HTTP, and keeps serving', async () => {
    const response = await exchange(port, head('/v3/api/login', FORM, 500, 'en') + FIELDS);
    assert.equal(response.status, 400, response.body);
    const still = await fetch(`http://127.0.0.1:${port}/apiv2/userinfo/get`, {
      method: 'POST',
      headers: { lang: 'en' },
      body: new URLSearchParams({ apiUser: 'nobody', apiKey: 'nothing' }),
    });
    assert.equal(still.status, 200);
    assert.equal(((await still.json()) as { result: boolean }).result, false);
  });
});

/** Writes the request, ends the socket's sending side, and reads the answer until the server closes. */
function exchange(port: number, request: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: '127.0.0.1', port });
    const timer = setTimeout(() => socket.destroy(new Error('no answer within 10 s')), 10_000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, headers: text.slice(0, split), body: text.slice(split + 4) });
    });
    socket.end(request);
  });
}
