import { AppError, type ErrorCode, formatMessage, LANGS, type Lang } from '@herald/shared';
import { z } from 'zod';
import type { Apiv2ActionEntry } from '../apiv2/apiv2.plugin.ts';
import { type ActionDocs, COMMON_ERRORS, fieldDocs, type Text } from '../apiv2/apiv2-docs.ts';
import { sendCloudCode } from '../apiv2/envelope.ts';
import { SMS_COMMON_ERRORS } from '../smsapi/smsapi.params.ts';
import { V1_DOCS, v1Name } from './webapi.docs.ts';

/**
 * Herald's API documentation as OpenAPI 3.1, one document per language, built from what the
 * /apiv2 actions declare (apiv2-docs.ts): the schema each call is validated with is the one
 * documented here, so the two cannot drift. Every action answers GET (query) and POST (form, or
 * multipart where it takes files) with SendCloud's envelope at HTTP 200; the status codes an action
 * can answer come from the codes its parameters and its declaration name. The legacy v1 calls
 * (/webapi) are documented with their v1 names, from the v2 action each one runs.
 */
type Json = Record<string, unknown>;

const TEXT = {
  title: { 'zh-cn': 'Herald API 文档', en: 'Herald API reference' },
  intro: {
    'zh-cn':
      '与 SendCloud API v2 兼容的接口（`/apiv2/<模块>/<动作>`）和旧版 v1 接口（`/webapi/<模块>.<动作>.<json|xml>`）。每个调用都接受 GET（查询参数）或 POST（表单，带附件时 multipart/form-data），都需要 apiUser 和 apiKey。无论成功与否 HTTP 状态都是 200，结果看返回的 result 和 statusCode。动作名不区分大小写（data/emailStatus 与 data/emailstatus 相同）。',
    en: 'The SendCloud API v2 compatible calls (`/apiv2/<module>/<action>`) and the legacy v1 calls (`/webapi/<module>.<action>.<json|xml>`). Every call takes GET (query parameters) or POST (a form, multipart/form-data with attachments), and every call needs apiUser and apiKey. The HTTP status is 200 whether the call succeeds or not: read result and statusCode in the answer. Action names match whatever their case (data/emailStatus is data/emailstatus).',
  },
  ok: {
    'zh-cn': 'SendCloud 信封；result=false 时 statusCode 为下表中的错误码',
    en: 'SendCloud’s envelope; with result=false, statusCode is one of the codes below',
  },
  codes: { 'zh-cn': '可能的 statusCode', en: 'Possible statusCodes' },
  message: { 'zh-cn': '说明', en: 'Meaning' },
  v1: { 'zh-cn': 'v1（旧版）', en: 'v1 (legacy)' },
  v1Answer: {
    'zh-cn':
      '成功：{"message":"success", …}；失败：{"message":"error","errors":["原因"]}。HTTP 状态都是 200。',
    en: 'Success: {"message":"success", …}; failure: {"message":"error","errors":["reason"]}. HTTP 200 either way.',
  },
  sms: {
    'zh-cn':
      '短信 API（`/smsapi/<动作>`）：用 smsUser 和 signature 认证，signature = md5(SMS_KEY&按参数名排序的 k=v 用 & 连接&SMS_KEY)，SMS_KEY 本身不发送。',
    en: 'The SMS API (`/smsapi/<action>`): authenticated by smsUser and signature, signature = md5(SMS_KEY&the k=v pairs sorted by name joined by &&SMS_KEY); the SMS_KEY itself is never sent.',
  },
  timestamp: {
    'zh-cn': '服务器当前时间（毫秒），用于带 timestamp 的签名',
    en: 'The server’s time in milliseconds, for signing with a timestamp',
  },
  v1Runs: {
    'zh-cn': '运行 v2 的 {path}，参数为 v1 的写法。',
    en: 'Runs v2’s {path} with the parameters spelled v1’s way.',
  },
  format: { 'zh-cn': '返回格式：json 或 xml', en: 'Answer format: json or xml' },
} satisfies Record<string, Text>;

export interface ApiDocsSource {
  actions: Apiv2ActionEntry[];
  /** The SMS API's actions (/smsapi), authenticated by SMS_USER and signature. */
  smsActions?: readonly { path: string; docs: ActionDocs }[];
  version: string;
}

export function openApiDocument(source: ApiDocsSource, lang: Lang): Json {
  const paths: Json = {};
  const byPath = new Map(source.actions.map((a) => [a.path, a]));
  for (const action of source.actions) paths[`/apiv2/${action.path}`] = apiv2Path(action, lang);
  for (const [call, v1] of Object.entries(V1_DOCS)) {
    const action = v1.v2 ? byPath.get(v1.v2) : undefined;
    paths[`/webapi/${call}.{format}`] = v1Path(call, v1, action, lang);
  }
  for (const action of source.smsActions ?? []) paths[`/smsapi/${action.path}`] = smsPath(action, lang);
  if (source.smsActions) paths['/smsapi/timestamp/get'] = timestampPath(lang);
  const modules = [...new Set(source.actions.map((a) => moduleOf(a.path)))];
  return {
    openapi: '3.1.0',
    info: { title: TEXT.title[lang], version: source.version, description: TEXT.intro[lang] },
    servers: [{ url: '/' }],
    tags: [
      ...modules.map((name) => ({ name })),
      { name: 'v1', description: TEXT.v1[lang] },
      ...(source.smsActions ? [{ name: 'smsapi', description: TEXT.sms[lang] }] : []),
    ],
    paths,
    components: { schemas: { Envelope: ENVELOPE, V1Answer: V1_ANSWER } },
  };
}

const ENVELOPE = {
  type: 'object',
  required: ['result', 'statusCode', 'message', 'info'],
  properties: {
    result: { type: 'boolean' },
    statusCode: { type: 'integer' },
    message: { type: 'string' },
    info: { type: 'object' },
  },
};

const V1_ANSWER = {
  type: 'object',
  required: ['message'],
  properties: {
    message: { type: 'string', enum: ['success', 'error'] },
    errors: { type: 'array', items: { type: 'string' } },
  },
  additionalProperties: true,
};

const moduleOf = (path: string) => path.split('/')[0] ?? path;

function apiv2Path(action: Apiv2ActionEntry, lang: Lang): Json {
  const { docs } = action;
  const fields = fieldsOf(docs, lang);
  const base = {
    tags: [moduleOf(action.path)],
    summary: docs.summary[lang],
    ...(docs.description ? { description: docs.description[lang] } : {}),
    responses: { '200': envelopeResponse(docs, lang) },
    'x-sendcloud-status-codes': statusCodes(docs, lang),
  };
  return {
    get: { ...base, operationId: `${action.path}:get`, parameters: queryParameters(fields) },
    post: { ...base, operationId: `${action.path}:post`, requestBody: formBody(fields, docs, lang) },
  };
}

function smsPath(action: { path: string; docs: ActionDocs }, lang: Lang): Json {
  const { docs } = action;
  const fields = fieldsOf(docs, lang);
  const base = {
    tags: ['smsapi'],
    summary: docs.summary[lang],
    ...(docs.description ? { description: docs.description[lang] } : {}),
    responses: { '200': envelopeResponse(docs, lang, SMS_COMMON_ERRORS) },
    'x-sendcloud-status-codes': statusCodes(docs, lang, SMS_COMMON_ERRORS),
  };
  return {
    get: { ...base, operationId: `smsapi:${action.path}:get`, parameters: queryParameters(fields) },
    post: { ...base, operationId: `smsapi:${action.path}:post`, requestBody: formBody(fields, docs, lang) },
  };
}

function timestampPath(lang: Lang): Json {
  const answer = {
    '200': {
      description: TEXT.timestamp[lang],
      content: {
        'application/json': {
          schema: {
            allOf: [
              { $ref: '#/components/schemas/Envelope' },
              {
                type: 'object',
                properties: { info: { type: 'object', properties: { timestamp: { type: 'integer' } } } },
              },
            ],
          },
        },
      },
    },
  };
  const base = { tags: ['smsapi'], summary: TEXT.timestamp[lang], responses: answer };
  const form = { type: 'object', properties: {}, required: [] };
  return {
    get: { ...base, operationId: 'smsapi:timestamp/get:get', parameters: [] },
    post: {
      ...base,
      operationId: 'smsapi:timestamp/get:post',
      requestBody: { required: false, content: { 'application/x-www-form-urlencoded': { schema: form } } },
    },
  };
}

function v1Path(
  call: string,
  v1: (typeof V1_DOCS)[string],
  action: Apiv2ActionEntry | undefined,
  lang: Lang,
): Json {
  const fields = action ? fieldsOf(action.docs, lang, v1Name) : credentialsOnly(lang);
  const summary = v1.summary?.[lang] ?? action?.docs.summary[lang] ?? call;
  const runs = action ? TEXT.v1Runs[lang].replace('{path}', `/apiv2/${action.path}`) : '';
  const format = {
    name: 'format',
    in: 'path',
    required: true,
    description: TEXT.format[lang],
    schema: { type: 'string', enum: ['json', 'xml'] },
  };
  const answer = {
    '200': {
      description: TEXT.v1Answer[lang],
      content: { 'application/json': { schema: { $ref: '#/components/schemas/V1Answer' } } },
    },
  };
  const base = {
    tags: ['v1'],
    summary: `${call} · ${summary}`,
    description: [runs, v1.description?.[lang]].filter(Boolean).join(' '),
    responses: answer,
  };
  const docs = action?.docs;
  return {
    get: { ...base, operationId: `v1:${call}:get`, parameters: [format, ...queryParameters(fields)] },
    post: {
      ...base,
      operationId: `v1:${call}:post`,
      parameters: [format],
      requestBody: formBody(fields, docs, lang, v1Name),
    },
  };
}

interface Field {
  name: string;
  required: boolean;
  description: string;
  schema: Json;
}

function fieldsOf(docs: ActionDocs, lang: Lang, rename: (name: string) => string = (n) => n): Field[] {
  const json = jsonSchema(docs.params, lang, 'input');
  const properties = (json.properties ?? {}) as Record<string, Json>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(docs.params.shape).map(([name, schema]) => {
    const meta = fieldDocs.get(schema);
    const { description = '', ...rest } = properties[name] ?? {};
    return {
      name: rename(name),
      required: required.has(name) || meta?.required !== undefined,
      description: String(description),
      schema: rest,
    };
  });
}

function credentialsOnly(lang: Lang): Field[] {
  const describe = (name: string, zh: string, en: string) => ({
    name,
    required: true,
    description: lang === 'en' ? en : zh,
    schema: { type: 'string' },
  });
  return [
    describe('api_user', 'API_USER 名称', 'The API_USER name'),
    describe('api_key', 'API_USER 的 API_KEY', 'The API_USER’s API_KEY'),
  ];
}

function queryParameters(fields: Field[]): Json[] {
  return fields.map((f) => ({
    name: f.name,
    in: 'query',
    required: f.required,
    description: f.description,
    schema: f.schema,
  }));
}

function formBody(
  fields: Field[],
  docs: ActionDocs | undefined,
  lang: Lang,
  rename: (name: string) => string = (n) => n,
): Json {
  const properties: Json = {};
  for (const f of fields) properties[f.name] = { ...f.schema, description: f.description };
  const required = fields.filter((f) => f.required).map((f) => f.name);
  const form = { type: 'object', properties, required };
  const content: Json = { 'application/x-www-form-urlencoded': { schema: form } };
  if (docs?.files) {
    const files = {
      type: 'array',
      items: { type: 'string', contentMediaType: 'application/octet-stream' },
      description: docs.files.description[lang],
    };
    content['multipart/form-data'] = {
      schema: { ...form, properties: { ...properties, [rename(docs.files.name)]: files } },
    };
  }
  return { required: required.length > 0, content };
}

function envelopeResponse(docs: ActionDocs, lang: Lang, common: ErrorCode[] = COMMON_ERRORS): Json {
  const info = docs.info ? jsonSchema(docs.info, lang, 'output') : { type: 'object' };
  const table = statusCodes(docs, lang, common)
    .map((c) => `| ${c.statusCode} | ${c.message} |`)
    .join('\n');
  return {
    description: `${TEXT.ok[lang]}\n\n| statusCode | ${TEXT.message[lang]} |\n| --- | --- |\n| 200 | ${lang === 'en' ? 'success' : '请求成功'} |\n${table}`,
    content: {
      'application/json': {
        schema: {
          allOf: [{ $ref: '#/components/schemas/Envelope' }, { type: 'object', properties: { info } }],
        },
      },
    },
  };
}

/** The codes an action can answer: the common ones, its parameters' and its own, by statusCode. */
export function statusCodes(
  docs: ActionDocs,
  lang: Lang,
  common: ErrorCode[] = COMMON_ERRORS,
): { statusCode: number; code: ErrorCode; message: string }[] {
  const codes = new Set<ErrorCode>(common);
  for (const schema of Object.values(docs.params.shape)) {
    const meta = fieldDocs.get(schema);
    if (typeof meta?.required === 'string') codes.add(meta.required);
    if (meta?.invalid) codes.add(meta.invalid);
    for (const code of meta?.codes ?? []) codes.add(code);
  }
  for (const code of docs.errors ?? []) codes.add(code);
  return [...codes]
    .map((code) => ({
      statusCode: sendCloudCode(new AppError(code)),
      code,
      message: formatMessage(code, lang),
    }))
    .sort((a, b) => a.statusCode - b.statusCode || a.code.localeCompare(b.code));
}

function jsonSchema(schema: z.ZodType, lang: Lang, io: 'input' | 'output'): Json {
  const json = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    override: (ctx) => {
      const meta = fieldDocs.get(ctx.zodSchema as unknown as z.ZodType);
      if (meta) ctx.jsonSchema.description = meta.description[lang];
    },
  }) as Json;
  delete json.$schema;
  return json;
}

/** Both languages' documents, built once. */
export function openApiDocuments(source: ApiDocsSource): Record<Lang, Json> {
  return Object.fromEntries(LANGS.map((lang) => [lang, openApiDocument(source, lang)])) as Record<Lang, Json>;
}
