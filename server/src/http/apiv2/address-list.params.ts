import { type ActionDocs, params, t } from './apiv2-docs.ts';

/** The address-list calls answer 40820 until address lists land; their parameters are SendCloud's. */
export function needsLists(path: string): ActionDocs {
  return {
    summary: t(`${path}（暂不可用：尚无地址列表）`, `${path} (not yet available: no address lists)`),
    description: t(
      'Herald 尚无地址列表，此调用总是返回 40820。',
      'Herald has no address lists yet; this call always answers 40820.',
    ),
    params: params(),
    errors: ['API_ADDRESS_LISTS_UNAVAILABLE'],
  };
}
