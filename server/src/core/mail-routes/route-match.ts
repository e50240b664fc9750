/** A receive route's address rule, as the inbound MX applies it to a recipient's local part. */
export interface RouteRule {
  match: string;
  expression: string;
}

/** Whether the local part (lower case) falls under the rule: `*`, a prefix, or a glob. */
export function matchesRule(rule: RouteRule, local: string): boolean {
  if (rule.expression === '*') return true;
  if (rule.match === 'prefix') return local.startsWith(rule.expression);
  const pattern = rule.expression
    .split('*')
    .map((piece) => piece.replace(/[.+?^${}()|[\]\\-]/g, '\\$&'))
    .join('[^@]*');
  return new RegExp(`^${pattern}$`).test(local);
}

/** The rule a recipient goes by when several match: the most specific (longest) first, `*` last. */
export function bestRule<T extends RouteRule>(rules: T[], local: string): T | undefined {
  return rules.filter((r) => matchesRule(r, local)).sort((a, b) => specificity(b) - specificity(a))[0];
}

function specificity(rule: RouteRule): number {
  if (rule.expression === '*') return -1;
  return rule.expression.replaceAll('*', '').length * 2 + (rule.match === 'prefix' ? 0 : 1);
}
