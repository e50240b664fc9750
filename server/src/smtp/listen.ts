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
  return Object.assign(new Error(message), { responseCode: code });
}
