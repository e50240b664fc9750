import nodemailer from 'nodemailer';

/** A real SMTP client (nodemailer) for the plain submission port on loopback, with AUTH. */
export function submissionClient(port: number, auth: { user: string; pass: string }) {
  return nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: true,
    auth,
  } as never);
}
