import { SMS_ROUTE_KINDS, type SmsRouteKind } from '@herald/shared/schemas/sms-carrier.schema';

/** The locale key of a route's kind: `*` (every kind) reads as `all`. */
export type KindKey = 'all' | Exclude<SmsRouteKind, '*'>;

export function kindKey(kind: string): KindKey {
  return kind === '*' || !(SMS_ROUTE_KINDS as readonly string[]).includes(kind) ? 'all' : (kind as KindKey);
}
