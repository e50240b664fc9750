import type { ApiUserView } from '@herald/shared';
import {
  API_USER_NAME_PATTERN,
  type ApiUserEmailType,
  AppError,
  apiUserCreateSchema,
  type Lang,
} from '@herald/shared';
import { APIUSER_ADD, APIUSER_LIST } from './api-user.params.ts';
import type { Apiv2Area } from './apiv2.plugin.ts';

/** SendCloud's numeric emailType and cType (apiuser_do.md): 0 trigger / 1 batch, 0 test / 1 normal. */
const EMAIL_TYPES: Record<string, ApiUserEmailType> = { '0': 'trigger', '1': 'batch' };
const C_TYPES: Record<string, 'test' | 'normal'> = { '0': 'test', '1': 'normal' };

/** The words SendCloud's own answers use for the types ("触发", "非测试"), in the caller's language. */
const WORDS: Record<Lang, Record<string, string>> = {
  'zh-cn': { trigger: '触发', batch: '批量', test: '测试', normal: '非测试' },
  en: { trigger: 'trigger', batch: 'batch', test: 'test', normal: 'normal' },
};

function describe(user: ApiUserView, lang: Lang) {
  return {
    name: user.name,
    cType: WORDS[lang][user.cType],
    emailType: WORDS[lang][user.emailType],
    domainName: user.domainName ?? '',
    neteaseSender: '',
    click: user.clickTracking ? 1 : 0,
    open: user.openTracking ? 1 : 0,
    unsubscribe: user.unsubscribeTracking ? 1 : 0,
  };
}

/**
 * `apiuser/list` and `apiuser/add` (reference §8). The caller's API_USER only names the account;
 * an added API_USER follows the console's rules, and its key (`nameKey`) is in this answer only.
 */
export const apiUserApiv2: Apiv2Area = (action, core) => {
  action('apiuser/list', APIUSER_LIST, async ({ caller, params, request }) => {
    const { emailType, cType, domainName } = params.fields;
    const list = await core.apiUsers.list(caller, {
      emailType: emailType ? (EMAIL_TYPES[emailType] ?? invalidEmailType()) : undefined,
      cType: cType ? C_TYPES[cType] : undefined,
      domainName: domainName || undefined,
    });
    const dataList = list.map((u) => describe(u, request.lang));
    return { count: dataList.length, dataList };
  });

  action('apiuser/add', APIUSER_ADD, async ({ caller, params, request }) => {
    const f = params.fields;
    const name = (f.name ?? '').trim();
    if (!API_USER_NAME_PATTERN.test(name)) throw new AppError('API_USER_NAME_INVALID');
    const emailType = EMAIL_TYPES[f.emailType ?? ''] ?? invalidEmailType();
    const domainId = await core.apiUsers.domainIdByName(caller, (f.domainName ?? '').trim());
    const input = apiUserCreateSchema.parse({
      name,
      emailType,
      domainId,
      openTracking: f.open ?? '1',
      clickTracking: f.click ?? '1',
      unsubscribeTracking: f.unsubscribe ?? '1',
    });
    const { apiUser, apiKey } = await core.apiUsers.create(caller, input);
    const described = describe(apiUser, request.lang);
    return { total: 1, data: { ...described, domain: described.domainName, nameKey: apiKey } };
  });
};

function invalidEmailType(): never {
  throw new AppError('API_USER_EMAIL_TYPE_INVALID');
}
