import type { Text } from '../apiv2/apiv2-docs.ts';
import { t } from '../apiv2/apiv2-docs.ts';
import { RENAMED } from '../webapi/webapi.calls.ts';

/**
 * What the documentation says of each legacy v1 call (webapi.calls.ts `V1_CALLS`, by the same
 * lower-case `module.action`): the v2 action whose handler it runs, whose parameters it takes in
 * v1's spelling. The drift test holds this table to V1_CALLS, key for key.
 */
export interface V1Doc {
  v2?: string;
  summary?: Text;
  description?: Text;
}

const LISTS: V1Doc = {
  summary: t('地址列表（暂不可用）', 'Address lists (not yet available)'),
  description: t(
    'Herald 尚无地址列表，此调用总是返回错误。',
    'Herald has no address lists yet; this call always answers an error.',
  ),
};

export const V1_DOCS: Record<string, V1Doc> = {
  'mail.send': { v2: 'mail/send' },
  'mail.send_template': { v2: 'mail/sendtemplate' },
  'list.get': LISTS,
  'list.create': LISTS,
  'list.update': LISTS,
  'list.delete': LISTS,
  'list_member.get': LISTS,
  'list_member.add': LISTS,
  'list_member.update': LISTS,
  'list_member.delete': LISTS,
  'bounces.get': { v2: 'bounce/list' },
  'bounces.delete': { v2: 'bounce/delete' },
  'bounces.count': { v2: 'bounce/count' },
  'label.list': { v2: 'label/list' },
  'label.get': { v2: 'label/get', description: t('也可用 labelName 查询。', 'labelName finds a label too.') },
  'label.create': { v2: 'label/add' },
  'label.update': { v2: 'label/update' },
  'label.delete': { v2: 'label/delete' },
  'queuestatus.get': {
    summary: t('查询发送队列状态', 'Queue status'),
    description: t(
      '每个 API_USER 和发信域名的队列：是否暂停（isStop）、恢复前的秒数、待发数量。',
      'Each API_USER and sending domain’s queue: paused (isStop), seconds until it resumes, mail waiting.',
    ),
  },
  'spamreported.get': { v2: 'spamreported/list' },
  'stats.get': { v2: 'statday/list' },
  'statshour.get': { v2: 'stathour/list' },
  'invalidstat.get': { v2: 'invalidstat/list' },
  'template.get': {
    v2: 'template/list',
    description: t('返回每个模板的完整内容。', 'Answers every template in full.'),
  },
  'template.add': { v2: 'template/add' },
  'template.update': { v2: 'template/update' },
  'template.delete': { v2: 'template/delete' },
  'unsubscribes.get': { v2: 'unsubscribe/list' },
  'unsubscribes.add': { v2: 'unsubscribe/add' },
  'unsubscribes.delete': {
    v2: 'unsubscribe/delete',
    description: t(
      '不给 email 时删除日期范围内的全部记录（需要 start_date）。',
      'Without email, deletes every entry of the date range (start_date required).',
    ),
  },
  'userinfo.get': { v2: 'userinfo/get' },
  'apiuser.list': { v2: 'apiuser/list' },
  'domain.list': { v2: 'domain/list' },
};

const V1_NAME = new Map<string, string>();
for (const [v1, v2] of Object.entries(RENAMED)) if (!V1_NAME.has(v2)) V1_NAME.set(v2, v1);

/** A v2 parameter's v1 spelling: `apiUser` → `api_user`, `fromName` → `fromname`. */
export function v1Name(v2: string): string {
  return V1_NAME.get(v2) ?? v2.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
