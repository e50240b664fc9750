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
  return files.map((f) => ({ filename: f.filename, contentType: f.contentType, content: f.content }));
}
