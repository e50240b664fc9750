/**
 * Copy-ready samples of a first `mail/send` call, one per language, written from the caller's own
 * values: the API base URL, the API_USER and a from address on its domain. The key is never
 * filled in (the console does not have it): every sample reads `API_KEY_PLACEHOLDER`, which the
 * developer replaces. The integration page shows these; a server test runs the curl, Node and
 * Python ones against a live Herald, so what is shown is what works.
 */
import { formSamples } from './form-samples.ts';

export const SAMPLE_LANGUAGES = ['curl', 'node', 'python', 'java', 'php', 'go'] as const;
export type SampleLanguage = (typeof SAMPLE_LANGUAGES)[number];

export const API_KEY_PLACEHOLDER = 'YOUR_API_KEY';

export interface SampleValues {
  /** Herald's public base URL, without a trailing slash (`https://mail.example.com`). */
  baseUrl: string;
  apiUser: string;
  from: string;
  to: string;
  subject: string;
  html: string;
}

/** The first `mail/send`: the generic form-post samples (form-samples.ts) with these values. */
export function sendSamples(v: SampleValues): Record<SampleLanguage, string> {
  return formSamples(
    `${v.baseUrl}/apiv2/mail/send`,
    [
      ['apiUser', v.apiUser],
      ['apiKey', API_KEY_PLACEHOLDER],
      ['from', v.from],
      ['to', v.to],
      ['subject', v.subject],
      ['html', v.html],
    ],
    'SendMail',
  );
}

/** How a submission port is secured: plain (STARTTLS offered when a certificate is set), STARTTLS required, or TLS from the first byte. */
export type SmtpSecurity = 'none' | 'starttls-optional' | 'starttls' | 'tls';

/** What the integration page shows: where to send, from the deployment's configuration. */
export interface IntegrationView {
  apiBaseUrl: string;
  docsUrl: string;
  smtpHost: string;
  smtpPorts: { port: number; security: SmtpSecurity }[];
}
