import type { AddressInfo } from 'node:net';
import type { SMTPServer } from 'smtp-server';
import { SMTPConnection } from 'smtp-server/lib/smtp-connection.js';

export function listenSmtp(server: SMTPServer, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.server.address() as AddressInfo);
    });
  });
}

/**
 * The 220 greeting at once. smtp-server holds every new connection 100 ms before greeting it
 * (`SMTPConnection.init`), so that a client talking before the greeting (an "early talker", the
 * mark of a spam bot at an MX) can be told "421 You talk too soon"; a client opening one
 * connection per message could send only about 10 messages a second per connection slot. On a
 * submission port that wait protects nothing: no command does anything before AUTH with an
 * API_KEY (or a trusted network), and the connection limits apply from the first byte. This is
 * smtp-server 3.21.6's `SMTPServer.connect` + `SMTPConnection.init` without the timer; a client
 * that still writes before it has read the greeting is answered as usual. The inbound MX keeps
 * the library's wait, where early-talker detection is worth its 100 ms.
 */
export function greetAtOnce(server: SMTPServer): void {
  server.connect = (socket, socketOptions) => {
    const connection = new SMTPConnection(server, socket, socketOptions);
    server.connections.add(connection);
    connection.on('error', (error: Error) => server._onError(error));
    connection.on('connect', (data) => server._onClientConnect(data));
    connection._setListeners(() => {
      const maxClients = server.options.maxClients;
      if (maxClients && server.connections.size > maxClients) {
        connection.send(421, `${connection.name} Too many connected clients, try again in a moment`, false);
        return;
      }
      connection.connectionReady();
    });
  };
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
