import type { Lang } from '../lang.ts';

/**
 * One entry of the error catalogue. `status` is the console API's HTTP status (console-spec §8);
 * `sendCloud` is the numeric `statusCode` the SendCloud-compatible API (/apiv2) answers with,
 * where SendCloud documents one (../shared/reference/sendcloud-api.md §12).
 */
export type ErrorDefinition = { status: number; sendCloud?: number } & Record<Lang, string>;

/** Field-rule messages (product-spec §5), keyed by rule. */
export type RuleMessages = Record<string, Record<Lang, string>>;
