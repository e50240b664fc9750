import mime from 'mime';
import type { Apiv2Area } from './apiv2.plugin.ts';

/**
 * `mail/send` and `mail/sendtemplate` (reference §2, §3): every parameter arrives as a form,
 * query or multipart field; files are the attachments. The envelope's info holds emailIdList
 * (empty when respEmailId=false).
 */
export const mailApiv2: Apiv2Area = (action, core) => {
  action('mail/send', async ({ caller, params }) => {
    const result = await core.send.send(caller, params.fields, attachmentsOf(params.files));
    return { emailIdList: result.emailIdList };
  });

  action('mail/sendtemplate', async ({ caller, params }) => {
    const result = await core.send.sendTemplate(caller, params.fields, attachmentsOf(params.files));
    return { emailIdList: result.emailIdList };
  });
};

function attachmentsOf(files: { filename: string; contentType: string; content: Buffer }[]) {
  return files.map((f) => ({
    filename: f.filename,
    contentType: attachmentType(f.filename, f.contentType),
    content: f.content,
  }));
}

/**
 * An attachment's type comes from its file name: what a client puts on a form part is often the
 * form's own type (`multipart/form-data`) or a generic one, and copied into the mail it makes the
 * file unopenable. A name with no known type keeps the part's type when that is a plain one.
 */
export function attachmentType(filename: string, sent: string): string {
  const byName = mime.getType(filename);
  if (byName) return byName;
  const type = sent.split(';')[0]?.trim().toLowerCase() ?? '';
  return /^[a-z]+\/[a-z0-9.+-]+$/.test(type) && !type.startsWith('multipart/')
    ? type
    : 'application/octet-stream';
}
