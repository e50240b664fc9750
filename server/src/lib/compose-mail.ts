import addressparser from 'nodemailer/lib/addressparser';
import MailComposer from 'nodemailer/lib/mail-composer';

/**
 * Builds the RFC 5322 message Herald hands to the recipient's MX, with nodemailer's
 * MailComposer (MIME structure, encoded words, line lengths are its business, not ours). The
 * Message-ID is derived from the stored message, not random, so every retry of one message
 * carries the same id and the recipient's server can recognise a duplicate.
 */
export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  messageId: string;
  date: Date;
}

export interface ComposedMail {
  raw: Buffer;
  messageId: string;
  envelope: { from: string; to: string };
}

export async function composeMail(mail: OutgoingMail): Promise<ComposedMail> {
  const composer = new MailComposer({
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    ...(mail.html ? { html: mail.html } : {}),
    messageId: mail.messageId,
    date: mail.date,
    newline: 'win',
  });
  const raw = await composer.compile().build();
  return { raw, messageId: mail.messageId, envelope: { from: envelopeAddress(mail.from), to: mail.to } };
}

/** `<system.42.lx3k9@mail.example.com>`: unique per stored message, on the platform's host. */
export function systemMessageId(id: number, createdAt: number, hostname: string): string {
  return `<system.${id}.${createdAt.toString(36)}@${hostname}>`;
}

/** The bare address of a From value such as `Herald <no-reply@example.com>`; '' when it has none. */
export function envelopeAddress(from: string): string {
  const [first] = addressparser(from, { flatten: true });
  return first?.address ?? '';
}
