import type { ErrorDefinition } from './error-definition.ts';

/**
 * The verdicts of a sending domain's DNS checks (issue 16). They are never thrown: a check stores
 * its code and parameters with the record, the console shows the text in the reader's language and
 * API clients get the English one. Each text says what was found and what to do about it, in words
 * a DNS console's user knows (no resolver codes such as NXDOMAIN or ENOTFOUND). `status`
 * only keeps the catalogue's shape.
 */
export const DNS_CHECK_ERRORS = {
  DNS_CHECK_NXDOMAIN: {
    status: 422,
    'zh-cn': 'DNS 中还没有 {host} 这个名称：请在 DNS 服务商处添加此记录（新记录生效可能需要几分钟）',
    en: '{host} does not exist in DNS yet: add this record at your DNS host (a new record can take a few minutes to appear)',
  },
  DNS_CHECK_NO_RECORDS: {
    status: 422,
    'zh-cn': '{host} 下没有 {type} 记录：请在 DNS 服务商处添加此记录',
    en: '{host} has no {type} record: add this record at your DNS host',
  },
  DNS_CHECK_SERVFAIL: {
    status: 422,
    'zh-cn':
      '{host} 的 DNS 服务器未能应答 {type} 查询：请在 DNS 服务商处检查该域名的 NS 设置；Herald 会自动重试',
    en: 'The DNS servers of {host} failed to answer the {type} query: check the domain’s name servers at your DNS host; Herald tries again by itself',
  },
  DNS_CHECK_TIMEOUT: {
    status: 422,
    'zh-cn': '查询 {host} 的 {type} 记录超时：Herald 会自动重试；如果一直如此，请检查该域名的 NS 设置',
    en: 'The {type} query for {host} timed out: Herald tries again by itself; if it keeps happening, check the domain’s name servers',
  },
  DNS_CHECK_LOOKUP_FAILED: {
    status: 422,
    'zh-cn': '查询 {host} 的 {type} 记录失败（{reason}）：Herald 会自动重试；如果一直如此，请联系平台管理员',
    en: 'The {type} query for {host} failed ({reason}): Herald tries again by itself; if it keeps happening, tell the platform’s operator',
  },
  DNS_CHECK_CNAME_MISMATCH: {
    status: 422,
    'zh-cn': '{host} 的 CNAME 指向 {found}，而不是 {target}：请在 DNS 服务商处把它改为 {target}',
    en: 'The CNAME of {host} points to {found}, not {target}: change it to {target} at your DNS host',
  },
  DNS_CHECK_SPF_MISSING: {
    status: 422,
    'zh-cn': '{host} 没有 SPF 记录（以 v=spf1 开头的 TXT 记录）：请添加此记录',
    en: '{host} has no SPF record (a TXT record starting with v=spf1): add this record',
  },
  DNS_CHECK_SPF_MULTIPLE: {
    status: 422,
    'zh-cn':
      '{host} 有多条 SPF 记录，收件方会判定 SPF 失败：请合并为一条 v=spf1 记录，并包含 include:{spfDomain}',
    en: '{host} has more than one SPF record, so receivers fail SPF: merge them into one v=spf1 record that has include:{spfDomain}',
  },
  DNS_CHECK_SPF_NO_INCLUDE: {
    status: 422,
    'zh-cn':
      '{host} 的 SPF 记录没有包含 include:{spfDomain}：请在记录的 ~all 或 -all 之前加上 include:{spfDomain}',
    en: 'The SPF record of {host} lacks include:{spfDomain}: add include:{spfDomain} before its ~all or -all',
  },
  DNS_CHECK_DKIM_MISSING: {
    status: 422,
    'zh-cn': '{host} 没有 DKIM 公钥记录（含 p= 的 TXT 记录）：请添加此记录',
    en: '{host} has no DKIM key record (a TXT record with p=): add this record',
  },
  DNS_CHECK_DKIM_KEY_DIFFERS: {
    status: 422,
    'zh-cn': '{host} 上发布的公钥（p=）与 Herald 签名使用的不一致：请把记录值替换为此处显示的值（完整复制）',
    en: 'The key (p=) published at {host} is not the one Herald signs with: replace the record’s value with the one shown here (copy it whole)',
  },
  DNS_CHECK_DKIM_KEY_TYPE: {
    status: 422,
    'zh-cn': '{host} 的记录写的是 k={k}，而 Herald 使用 RSA 签名：请改为 k=rsa（或删去 k=）',
    en: 'The record at {host} says k={k}, but Herald signs with RSA: change it to k=rsa (or remove k=)',
  },
  DNS_CHECK_MX_ELSEWHERE: {
    status: 422,
    'zh-cn': '{host} 没有指向 {mxHost} 的 MX 记录：请添加值为 {mxHost} 的 MX 记录，退信才能回到 Herald',
    en: 'No MX record of {host} points to {mxHost}: add an MX record with the value {mxHost} so bounces come back to Herald',
  },
  DNS_CHECK_DMARC_MISSING: {
    status: 422,
    'zh-cn': '{host} 没有 DMARC 记录（以 v=DMARC1 开头的 TXT 记录）：建议添加此记录，收件方会更信任您的邮件',
    en: '{host} has no DMARC record (a TXT record starting with v=DMARC1): add this record; receivers trust your mail more with it',
  },
  DNS_CHECK_DMARC_MULTIPLE: {
    status: 422,
    'zh-cn': '{host} 有多条 DMARC 记录，收件方会全部忽略：请只保留一条',
    en: '{host} has more than one DMARC record, so receivers ignore them all: keep only one',
  },
  DNS_CHECK_DMARC_POLICY: {
    status: 422,
    'zh-cn': '{host} 的 DMARC 记录缺少有效的策略：p= 应为 none、quarantine 或 reject',
    en: 'The DMARC record of {host} needs a valid policy: p= must be none, quarantine or reject',
  },
} as const satisfies Record<string, ErrorDefinition>;

export type DnsCheckErrorCode = keyof typeof DNS_CHECK_ERRORS;
