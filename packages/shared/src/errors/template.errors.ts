import type { ErrorDefinition, RuleMessages } from './error-definition.ts';

/** Error codes of the template area (issue 5). */
export const TEMPLATE_ERRORS = {} as const satisfies Record<string, ErrorDefinition>;

/** Field-rule messages of the template area, used by its shared schemas. */
export const TEMPLATE_RULES = {} as const satisfies RuleMessages;
