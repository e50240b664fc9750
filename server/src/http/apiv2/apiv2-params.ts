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
