import type { ErrorDefinition, RuleMessages } from './error-definition.ts';

/** Error codes of the domain area (issue 5). */
export const DOMAIN_ERRORS = {} as const satisfies Record<string, ErrorDefinition>;

/** Field-rule messages of the domain area, used by its shared schemas. */
export const DOMAIN_RULES = {} as const satisfies RuleMessages;
