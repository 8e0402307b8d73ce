/** Stable codes of start-up mistakes. Never reuse a code once published. */
export const DefinitionErrorCode = {
  DUPLICATE_NAME: 'MCPKIT_ERR_DUPLICATE_NAME',
  INVALID_TOOL_NAME: 'MCPKIT_ERR_INVALID_TOOL_NAME',
  MISSING_DESIGN_METADATA: 'MCPKIT_ERR_MISSING_DESIGN_METADATA',
  DTO_WITHOUT_METADATA: 'MCPKIT_ERR_DTO_WITHOUT_METADATA',
  INPUT_TYPE_MISMATCH: 'MCPKIT_ERR_INPUT_TYPE_MISMATCH',
  INPUT_NOT_INFERABLE: 'MCPKIT_ERR_INPUT_NOT_INFERABLE',
  SCHEMA_ROOT_NOT_OBJECT: 'MCPKIT_ERR_SCHEMA_ROOT_NOT_OBJECT',
  INVALID_SCHEMA: 'MCPKIT_ERR_INVALID_SCHEMA',
  MALFORMED_URI_TEMPLATE: 'MCPKIT_ERR_MALFORMED_URI_TEMPLATE',
  INVALID_URI: 'MCPKIT_ERR_INVALID_URI',
  INVALID_PROMPT_ARGUMENT: 'MCPKIT_ERR_INVALID_PROMPT_ARGUMENT',
  INVALID_PROVIDER: 'MCPKIT_ERR_INVALID_PROVIDER',
  INVALID_OPTIONS: 'MCPKIT_ERR_INVALID_OPTIONS',
  NOT_A_METHOD: 'MCPKIT_ERR_NOT_A_METHOD',
  UNDECLARED_FIELD: 'MCPKIT_ERR_UNDECLARED_FIELD',
  EMPTY_FIELD_SCHEMA: 'MCPKIT_ERR_EMPTY_FIELD_SCHEMA',
  UNSAFE_PATTERN: 'MCPKIT_ERR_UNSAFE_PATTERN',
  TOKEN_BUDGET: 'MCPKIT_ERR_TOKEN_BUDGET',
  STANDARD_DECORATORS: 'MCPKIT_ERR_STANDARD_DECORATORS',
  UNKNOWN_VIEW: 'MCPKIT_ERR_UNKNOWN_VIEW',
  MOUNT_COLLISION: 'MCPKIT_ERR_MOUNT_COLLISION',
  INVALID_MOUNT: 'MCPKIT_ERR_INVALID_MOUNT',
  INVALID_TRANSFORM: 'MCPKIT_ERR_INVALID_TRANSFORM',
  STALE_VALIDATORS: 'MCPKIT_ERR_STALE_VALIDATORS',
} as const;

export type DefinitionErrorCodeValue = (typeof DefinitionErrorCode)[keyof typeof DefinitionErrorCode];

/**
 * A mistake in the app's declarations, found once at start-up by `createApp`. It never reaches
 * the wire. The message ends with a list of possible fixes.
 */
export class DefinitionError extends Error {
  constructor(
    readonly code: DefinitionErrorCodeValue,
    readonly problem: string,
    readonly fixes: readonly string[],
  ) {
    super(`${code}: ${problem}\n\nPossible fixes:\n${fixes.map((fix) => `  - ${fix}`).join('\n')}`);
    this.name = 'DefinitionError';
  }
}
