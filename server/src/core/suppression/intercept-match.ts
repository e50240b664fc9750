import type { RuleRow } from './suppression.repo.ts';

/**
 * Custom interception rules (`customeInterceptor`). A rule stops a recipient when it applies to
 * the sending API_USER (api_user_id 0 = every API_USER of the account) and:
 *   address  the recipient is exactly this address          e.g. boss@example.com
 *   domain   the recipient's domain is this or a subdomain  e.g. example.com (also a.example.com)
 *   keyword  the address contains this text                 e.g. noreply
 * Values are stored lower-cased; addresses are compared lower-cased.
 */
export function matchRule(
  rule: Pick<RuleRow, 'type' | 'value' | 'api_user_id'>,
  address: string,
  apiUserId: number | null,
): boolean {
  const scope = Number(rule.api_user_id);
  if (scope !== 0 && scope !== apiUserId) return false;
  if (rule.type === 'address') return address === rule.value;
  if (rule.type === 'domain') {
    const domain = address.slice(address.lastIndexOf('@') + 1);
    return domain === rule.value || domain.endsWith(`.${rule.value}`);
  }
  return address.includes(rule.value);
}
