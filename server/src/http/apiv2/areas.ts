import { addressListApiv2 } from './address-list.apiv2.ts';
import { apiUserApiv2 } from './api-user.apiv2.ts';
import type { Apiv2Area } from './apiv2.plugin.ts';
import { bounceApiv2 } from './bounce.apiv2.ts';
import { domainApiv2 } from './domain.apiv2.ts';
import { emailStatusApiv2 } from './email-status.apiv2.ts';
import { invalidstatApiv2 } from './invalidstat.apiv2.ts';
import { labelApiv2 } from './label.apiv2.ts';
import { mailApiv2 } from './mail.apiv2.ts';
import { openandclickApiv2 } from './openandclick.apiv2.ts';
import { spamreportedApiv2 } from './spamreported.apiv2.ts';
import { statApiv2 } from './stat.apiv2.ts';
import { templateApiv2 } from './template.apiv2.ts';
import { unsubscribeApiv2 } from './unsubscribe.apiv2.ts';
import { userinfoApiv2 } from './userinfo.apiv2.ts';
import { webhookApiv2 } from './webhook.apiv2.ts';

/** Every area of the SendCloud-compatible API; each lives in its own `<area>.apiv2.ts`. */
export const APIV2_AREAS: Apiv2Area[] = [
  domainApiv2,
  templateApiv2,
  apiUserApiv2,
  labelApiv2,
  userinfoApiv2,
  mailApiv2,
  emailStatusApiv2,
  bounceApiv2,
  unsubscribeApiv2,
  spamreportedApiv2,
  statApiv2,
  invalidstatApiv2,
  webhookApiv2,
  openandclickApiv2,
  addressListApiv2,
];
