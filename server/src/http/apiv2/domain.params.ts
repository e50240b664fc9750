import { domainNameSchema } from '@herald/shared';
import { z } from 'zod';
import { type ActionDocs, doc, params, t, text } from './apiv2-docs.ts';

/** domain/* (domain_do.md). Herald's domains are SendCloud's "normal" kind (type 1). */
const DOMAIN = doc(
  z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
  t(
    'name、type、verify、verifyKey.domain/value、spf.domain/value、dkim.domain/value/selector、cname.domain/value、mx.domain/value、dmarc.domain/value、status、gmtCreated、gmtUpdated',
    'name, type, verify, verifyKey.domain/value, spf.domain/value, dkim.domain/value/selector, cname.domain/value, mx.domain/value, dmarc.domain/value, status, gmtCreated, gmtUpdated',
  ),
);
const name = doc(domainNameSchema, t('域名', 'Domain name'), { codes: ['DOMAIN_NOT_FOUND'] });

export const DOMAIN_LIST: ActionDocs = {
  summary: t('查询域名列表', 'List domains'),
  params: params({
    name: text(t('域名，多个用 ; 分隔', 'Domain names, `;`-separated')),
    type: text(
      t('0 测试域名（Herald 没有），1 普通域名', '0 test domains (Herald has none), 1 normal domains'),
    ),
    verify: doc(
      z
        .string()
        .regex(/^\s*[=><]?\s*\d{1,2}\s*$/, 'invalid')
        .optional(),
      t(
        '验证状态过滤：=1 等于，>22 至少，<12 至多',
        'Verification filter: =1 equal, >22 at least, <12 at most',
      ),
      { invalid: 'DOMAIN_VERIFY_FILTER' },
    ),
  }),
  info: z.object({ dataList: z.array(DOMAIN), count: z.number(), total: z.number() }),
};
export const DOMAIN_ADD: ActionDocs = {
  summary: t('添加域名', 'Add a domain'),
  params: params({
    name: doc(domainNameSchema, t('域名', 'Domain name'), { codes: ['DOMAIN_TAKEN', 'DOMAIN_RESERVED'] }),
  }),
  info: z.object({ data: DOMAIN }),
  errors: ['DOMAIN_LIMIT_REACHED'],
};
export const DOMAIN_UPDATE: ActionDocs = {
  summary: t('修改域名', 'Rename a domain'),
  description: t('只有尚无验证通过的记录时可以修改。', 'Only while none of its records is verified.'),
  params: params({
    name,
    newName: doc(domainNameSchema, t('新域名', 'New domain name'), { codes: ['DOMAIN_TAKEN'] }),
  }),
  info: z.object({ data: DOMAIN }),
  errors: ['DOMAIN_RENAME_LOCKED'],
};
