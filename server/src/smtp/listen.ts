import type { AddressInfo } from 'node:net';
import type { SMTPServer } from 'smtp-server';

export function listenSmtp(server: SMTPServer, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.server.address() as AddressInfo);
    });
  });
}

export function closeSmtp(server: SMTPServer): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** An SMTP reply carried as an error, the way smtp-server expects rejections. */
export function smtpReply(code: number, message: string): Error & { responseCode: number } {
  return Object.assign(new Error(asciiReply(message)), { responseCode: code });
}

/**
 * SMTP replies are ASCII (RFC 5321 §4.2): typographic quotes and dashes of the message catalogue
 * become their ASCII forms, and any other non-ASCII character (a Unicode domain in a parameter)
 * a question mark.
 */
export function asciiReply(text: string): string {
  return text
    .replace(/[\u2018\u2019\u201B\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201F\u2033]/g, '"')
    .replace(/[\u2013\u2014\u2212]/g, '-')
    .replace(/\u2026/g, '...')
    .replace(/[\r\n]+/g, ' ')
    .replace(/[^\x20-\x7E]/g, '?');
}
