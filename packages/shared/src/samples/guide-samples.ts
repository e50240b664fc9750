import { type FormFields, formSamples } from './form-samples.ts';
import { API_KEY_PLACEHOLDER, type SampleLanguage, sendSamples } from './send-samples.ts';
import { smtpSamples } from './smtp-samples.ts';
import { webhookSamples } from './webhook-samples.ts';

/**
 * The samples of the guides at /docs/guides/, one set per call a guide shows, each in every
 * sample language. The guides are public, so nothing of an account is filled in: the API_USER,
 * the API_KEY, the webhook's app key, the sending domain and the recipients are placeholders the
 * developer replaces (a server test replaces them with real ones and runs the curl and Node
 * samples as the page shows them). The host names and ports are the deployment's.
 */
export const GUIDE_PLACEHOLDERS = {
  apiUser: 'YOUR_API_USER',
  apiKey: API_KEY_PLACEHOLDER,
  appKey: 'YOUR_APP_KEY',
  from: 'news@mail.example.com',
  to: ['ann@example.org', 'bob@example.org'],
  receiverUrl: 'http://localhost:3000/herald/webhook',
  templateInvokeName: 'order_shipped',
} as const;

export interface GuideSampleValues {
  /** Herald's public base URL, without a trailing slash. */
  baseUrl: string;
  smtpHost: string;
  smtpPort: number;
}

export const GUIDE_SAMPLE_IDS = [
  'http-send',
  'smtp-send',
  'x-smtpapi',
  'sendtemplate',
  'webhook-receiver',
  'tracking-send',
  'openandclick-list',
  'unsubscribe-add',
  'error-answer',
] as const;
export type GuideSampleId = (typeof GUIDE_SAMPLE_IDS)[number];

export function guideSamples(v: GuideSampleValues): Record<GuideSampleId, Record<SampleLanguage, string>> {
  const p = GUIDE_PLACEHOLDERS;
  const [ann, bob] = p.to;
  const api = (action: string) => `${v.baseUrl}/apiv2/${action}`;
  const auth: FormFields = [
    ['apiUser', p.apiUser],
    ['apiKey', p.apiKey],
  ];
  return {
    'http-send': sendSamples({
      baseUrl: v.baseUrl,
      apiUser: p.apiUser,
      from: p.from,
      to: `${ann};${bob}`,
      subject: 'Hello from Herald',
      html: '<p>Hello, this is our first mail.</p>',
    }),
    'smtp-send': smtpSamples({
      host: v.smtpHost,
      port: v.smtpPort,
      apiUser: p.apiUser,
      apiKey: p.apiKey,
      from: p.from,
      to: [ann, bob],
      subject: 'Hello %name%',
      html: '<p>Dear %name%, welcome aboard.</p>',
      xsmtpapi: { to: [ann, bob], sub: { '%name%': ['Ann', 'Bob'] } },
    }),
    'x-smtpapi': formSamples(
      api('mail/send'),
      [
        ...auth,
        ['from', p.from],
        ['subject', 'Your code, %name%'],
        ['html', '<p>%name%, your code is %code%.</p>'],
        [
          'xsmtpapi',
          { json: { to: [ann, bob], sub: { '%name%': ['Ann', 'Bob'], '%code%': ['4821', '9377'] } } },
        ],
      ],
      'SendPersonal',
    ),
    sendtemplate: formSamples(
      api('mail/sendtemplate'),
      [
        ...auth,
        ['from', p.from],
        ['templateInvokeName', p.templateInvokeName],
        [
          'xsmtpapi',
          { json: { to: [ann, bob], sub: { '%name%': ['Ann', 'Bob'], '%order%': ['A-1017', 'A-1018'] } } },
        ],
      ],
      'SendTemplate',
    ),
    'webhook-receiver': webhookSamples({ appKey: p.appKey, receiverUrl: p.receiverUrl, apiUser: p.apiUser }),
    'tracking-send': formSamples(
      api('mail/send'),
      [
        ...auth,
        ['from', p.from],
        ['to', ann],
        ['subject', 'Our spring catalogue'],
        ['html', '<p>See the <a href="https://shop.example.com/spring">spring catalogue</a>.</p>'],
        [
          'xsmtpapi',
          {
            json: {
              to: [ann],
              filters: {
                open_tracking: { settings: { enable: '1' } },
                click_tracking: { settings: { enable: '1' } },
              },
            },
          },
        ],
      ],
      'SendTracked',
    ),
    'openandclick-list': formSamples(
      api('openandclick/list'),
      [...auth, ['days', '1'], ['email', ann]],
      'OpenAndClickList',
    ),
    'unsubscribe-add': formSamples(
      api('unsubscribe/add'),
      [...auth, ['email', `${ann};${bob}`]],
      'UnsubscribeAdd',
    ),
    'error-answer': formSamples(
      api('mail/send'),
      [
        ['apiUser', p.apiUser],
        ['apiKey', 'a-wrong-key'],
        ['from', p.from],
        ['to', ann],
        ['subject', 'Hello'],
        ['html', '<p>Hello</p>'],
      ],
      'SendWithWrongKey',
    ),
  };
}
