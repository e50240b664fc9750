import {
  AppError,
  beijingDateTime,
  type DomainRecordView,
  domainCreateSchema,
  domainNameSchema,
  formatMessage,
  type Lang,
} from '@herald/shared';
import { z } from 'zod';
import type { DomainRow } from '../../core/domains/domains.repo.ts';
import type { DomainsService } from '../../core/domains/domains.service.ts';
import type { Apiv2Area } from './apiv2.plugin.ts';
import { DOMAIN_ADD, DOMAIN_LIST, DOMAIN_UPDATE } from './domain.params.ts';

/**
 * SendCloud's domain calls (reference §8, email_v2/domain_do.md): domain/list, domain/add,
 * domain/update. The caller's account is the API_USER's. Herald has one kind of domain, SendCloud's
 * "normal" (type 1); a type=0 (test) filter finds nothing. Field names with dots are SendCloud's.
 */
export const domainApiv2: Apiv2Area = (action, core) => {
  const domains = core.domains;

  action('domain/list', DOMAIN_LIST, async ({ caller, params, request }) => {
    const names = (params.fields.name ?? '')
      .split(';')
      .map((n) => n.trim().toLowerCase())
      .filter(Boolean);
    const type = params.fields.type?.trim();
    const verify = parseVerifyFilter(params.fields.verify);
    let rows = await domains.rows(caller, names.length > 0 ? names : undefined);
    if (type === '0') rows = [];
    else if (type && type !== '1') throw new AppError('COMMON_VALIDATION_FAILED');
    const dataList = rows
      .map((row) => sendCloudDomain(domains, row, request.lang))
      .filter((d) => verify(d.verify));
    return { dataList, count: dataList.length, total: dataList.length };
  });

  action('domain/add', DOMAIN_ADD, async ({ caller, params, request }) => {
    const { name } = domainCreateSchema.parse({ name: params.fields.name });
    const view = await domains.add(callerOf(caller), name);
    return { data: sendCloudDomain(domains, await domains.getByName(caller, view.name), request.lang) };
  });

  action('domain/update', DOMAIN_UPDATE, async ({ caller, params, request }) => {
    const { name, newName } = z
      .object({ name: domainNameSchema, newName: domainNameSchema })
      .parse({ name: params.fields.name, newName: params.fields.newName });
    const row = await domains.getByName(caller, name);
    await domains.rename(callerOf(caller), Number(row.id), newName);
    return { data: sendCloudDomain(domains, await domains.getByName(caller, newName), request.lang) };
  });
};

/** The core's calls take a user too; an API_USER acts for its account with no console user. */
function callerOf(caller: { accountId: number }) {
  return { accountId: caller.accountId, userId: 0 };
}

/** `verify=1` (equal), `verify=>22` (at least), `verify=<12` (at most); empty: no filter. */
export function parseVerifyFilter(raw: string | undefined): (verify: number) => boolean {
  const value = (raw ?? '').trim();
  if (value === '') return () => true;
  const match = /^([=><]?)\s*(\d{1,2})$/.exec(value);
  if (!match) throw new AppError('DOMAIN_VERIFY_FILTER');
  const n = Number(match[2]);
  if (match[1] === '>') return (v) => v >= n;
  if (match[1] === '<') return (v) => v <= n;
  return (v) => v === n;
}

/** SendCloud names a domain's kind in words in its answers ("普通"), though the filter takes 0/1. */
const NORMAL: Record<Lang, string> = { 'zh-cn': '普通', en: 'normal' };

function sendCloudDomain(
  domains: DomainsService,
  row: DomainRow,
  lang: Lang,
): { verify: number } & Record<string, unknown> {
  const view = domains.view(row);
  const record = (kind: string) => view.records.find((r) => r.kind === kind);
  const spf = record('spf');
  const dkim = record('dkim');
  const mx = record('mx');
  const dmarc = record('dmarc');
  // A record whose platform name is unset says so in the caller's language instead of a value
  // nobody should publish (`include:spf.127.0.0.1`).
  const value = (r: DomainRecordView | undefined) =>
    r?.missingSetting
      ? formatMessage('DOMAIN_PLATFORM_HOST_UNSET', lang, { setting: r.missingSetting })
      : r?.value;
  return {
    name: view.name,
    type: NORMAL[lang],
    verify: view.verify,
    'verifyKey.domain': view.name,
    'verifyKey.value': view.verifyKey,
    'spf.domain': spf?.host,
    'spf.value': value(spf),
    'dkim.domain': dkim?.host,
    'dkim.value': dkim?.value,
    'dkim.selector': view.dkimSelector,
    'cname.domain': '',
    'cname.value': '',
    'mx.domain': mx?.host,
    'mx.value': value(mx),
    'dmarc.domain': dmarc?.host,
    'dmarc.value': dmarc?.value,
    status: view.status,
    gmtCreated: sendCloudTime(view.createdAt),
    gmtUpdated: sendCloudTime(view.updatedAt),
  };
}

/** SendCloud's `yyyy-MM-dd HH:mm:ss`, in its time zone (Asia/Shanghai, UTC+8, no daylight saving). */
export function sendCloudTime(ms: number): string {
  return beijingDateTime(ms);
}
