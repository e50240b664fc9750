import { AppError } from '@herald/shared';
import type { FastifyRequest } from 'fastify';

/** A file sent with a multipart call (the `attachments` of mail/send). */
export interface UploadedFile {
  field: string;
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface Apiv2Params {
  /** Every text parameter, from the query string and the body; the body wins. */
  fields: Record<string, string>;
  files: UploadedFile[];
}

interface MultipartPart {
  type: 'field' | 'file';
  fieldname: string;
  value?: unknown;
  filename?: string;
  mimetype?: string;
  _buf?: Buffer;
}

/**
 * SendCloud clients send parameters as a query string (GET), a form body, or multipart with
 * files; all three become one flat map of strings here. A repeated parameter keeps its last value.
 * A value that is neither text, a number, a flag nor a part (a nested object or array of a JSON
 * body) is refused by name, never turned into text (a deeply nested one would exhaust the stack).
 */
export function apiv2Params(request: FastifyRequest): Apiv2Params {
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  const take = (source: unknown) => {
    if (!source || typeof source !== 'object') return;
    for (const [name, raw] of Object.entries(source as Record<string, unknown>)) {
      for (const value of Array.isArray(raw) ? raw : [raw]) {
        if (isPart(value)) {
          if (value.type === 'file') {
            files.push({
              field: name,
              filename: value.filename ?? 'attachment',
              contentType: value.mimetype ?? 'application/octet-stream',
              content: value._buf ?? Buffer.alloc(0),
            });
          } else fields[name] = String(value.value ?? '');
        } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
          fields[name] = String(value);
        } else if (value !== undefined && value !== null) {
          throw new AppError('COMMON_MALFORMED_BODY', { detail: `${name.slice(0, 64)} is not a text value` });
        }
      }
    }
  };
  take(request.query);
  take(request.body);
  return { fields, files };
}

function isPart(value: unknown): value is MultipartPart {
  return typeof value === 'object' && value !== null && 'fieldname' in value && 'type' in value;
}

/** v1 names SendCloud's own v2 samples still send whose camelCase is not their v2 name. */
const LEGACY_NAMES: Record<string, string> = {
  fromname: 'fromName',
  replyto: 'replyTo',
  x_smtpapi: 'xsmtpapi',
  substitution_vars: 'xsmtpapi',
  use_maillist: 'useAddressList',
  label: 'labelId',
};

/** v2 names a client may send all in lower case (`apiuser`, `respemailid`). */
const BY_LOWER_CASE = new Map(
  [
    'apiUser',
    'apiKey',
    'fromName',
    'replyTo',
    'labelId',
    'labelName',
    'templateInvokeName',
    'respEmailId',
    'useAddressList',
    'useNotification',
    'contentSummary',
    'sendRequestId',
    'invokeName',
    'templateType',
    'templateStat',
    'emailType',
    'domainName',
    'startDate',
    'endDate',
    'apiUserList',
    'labelIdList',
    'domainList',
    'emailIds',
    'trackType',
    'newName',
    'isSubmitAudit',
  ].map((name) => [name.toLowerCase(), name]),
);

/**
 * The other spellings of v2 parameters that SendCloud's own samples use: v1's snake_case
 * (`api_user`, `resp_email_id`, `template_invoke_name`, `substitution_vars`, which its Python and
 * PHP samples post to /apiv2) and all-lower-case names. Each fills its v2 name only when the call
 * did not send that name itself.
 */
export function withLegacyNames(fields: Record<string, string>): Record<string, string> {
  const out = { ...fields };
  for (const [name, value] of Object.entries(fields)) {
    const v2 =
      LEGACY_NAMES[name] ??
      BY_LOWER_CASE.get(name) ??
      (name.includes('_') ? name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) : undefined);
    if (v2 && v2 !== name && !(v2 in fields)) out[v2] = value;
  }
  return out;
}
