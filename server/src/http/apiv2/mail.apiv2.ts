import mime from 'mime';
import type { KeyCaller } from '../../core/context.ts';
import type { Apiv2Area } from './apiv2.plugin.ts';
import type { Apiv2Params } from './apiv2-params.ts';
import { withSuccessCode } from './envelope.ts';
import { MAIL_SEND, MAIL_SENDCALENDAR, MAIL_SENDTEMPLATE } from './mail.params.ts';

/**
 * `mail/send`, `mail/sendtemplate` and `mail/sendcalendar` (reference §2, §3, §4): every
 * parameter arrives as a form, query or multipart field; files are the attachments. The
 * envelope's info holds emailIdList (empty when respEmailId=false), and sendcalendar's the uid.
 * With `useAddressList=true` a send goes to the address lists named in `to` (core/mail-list-tasks).
 */
export const mailApiv2: Apiv2Area = (action, core) => {
  action('mail/send', MAIL_SEND, async ({ caller, params }) => {
    if (usesAddressList(params.fields)) return listSend(caller, params, 'send');
    const result = await core.send.send(caller, params.fields, attachmentsOf(params.files));
    return { emailIdList: result.emailIdList };
  });

  action('mail/sendtemplate', MAIL_SENDTEMPLATE, async ({ caller, params }) => {
    if (usesAddressList(params.fields)) return listSend(caller, params, 'template');
    const result = await core.send.sendTemplate(caller, params.fields, attachmentsOf(params.files));
    return { emailIdList: result.emailIdList };
  });

  /** A list send: its tasks are made at once and answered 40821 with their ids (reference §3). */
  async function listSend(caller: KeyCaller, params: Apiv2Params, kind: 'send' | 'template') {
    const ids = await core.mailListTasks.create(caller, params.fields, attachmentsOf(params.files), kind);
    return withSuccessCode(40821, { maillistTaskId: ids });
  }

  // The meeting's uid comes back so the caller can update or cancel it later (reference §4).
  action('mail/sendcalendar', MAIL_SENDCALENDAR, async ({ caller, params }) => {
    const result = await core.send.sendCalendar(caller, params.fields, attachmentsOf(params.files));
    return { emailIdList: result.emailIdList, uid: result.uid };
  });
};

function usesAddressList(fields: Record<string, string>): boolean {
  return (fields.useAddressList ?? '').trim().toLowerCase() === 'true';
}

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
