import type { ErrorDefinition, RuleMessages } from './error-definition.ts';

/** Error codes of the send area (issue 5). */
export const SEND_ERRORS = {} as const satisfies Record<string, ErrorDefinition>;

/** Field-rule messages of the send area, used by its shared schemas. */
export const SEND_RULES = {} as const satisfies RuleMessages;
