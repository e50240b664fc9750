import type { TestApp } from '../helpers/app.ts';
import { bearer, type SignedIn } from '../helpers/members.ts';

/**
 * Files and calls of the signature and filing tests: real PNG, JPEG and PDF bytes (a 1×1 image,
 * the smallest readable document), posted as the console posts them, one multipart part each.
 */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
export const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
  Buffer.alloc(60, 1),
  Buffer.from([0xff, 0xd9]),
]);
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n', 'latin1');

/** A valid 18-digit mainland ID number (checksum X) and how it is shown masked. */
export const ID_NUMBER = '11010519491231002X';
export const ID_MASKED = '110***********002X';

export function multipartBody(filename: string, content: Buffer, type = 'application/octet-stream') {
  const boundary = `----herald${Date.now().toString(16)}`;
  const head = Buffer.from(
    `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${filename}"\r\ncontent-type: ${type}\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export function uploadFile(
  t: TestApp,
  who: SignedIn,
  purpose: 'sms_sign' | 'sms_filing',
  filename: string,
  content: Buffer,
  lang = 'en',
) {
  const body = multipartBody(filename, content);
  return t.app.inject({
    method: 'POST',
    url: `/v3/api/sms/uploads?purpose=${purpose}`,
    headers: { ...bearer(who.token), ...body.headers, lang },
    payload: body.payload,
  });
}

/** Uploads a file and returns its id, failing the test when the upload is refused. */
export async function uploadedId(
  t: TestApp,
  who: SignedIn,
  purpose: 'sms_sign' | 'sms_filing',
  filename = 'licence.png',
  content: Buffer = PNG,
): Promise<number> {
  const res = await uploadFile(t, who, purpose, filename, content);
  if (res.statusCode !== 201) throw new Error(`upload refused: ${res.body}`);
  return res.json().data.id as number;
}
