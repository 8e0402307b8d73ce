const TOOL_ERROR_BRAND: unique symbol = Symbol.for('mcpkit.tool-error') as never;

/**
 * A tool failure whose message is meant for the model and the user. Thrown from a tool, it
 * becomes a result with `isError: true` carrying exactly this message; any other error is masked.
 * Thrown from a prompt or a resource (where no tool result can carry it), it is a `-32603` error
 * with this message, like a `PromptError` or `ResourceError`.
 *
 * @example
 * @Tool()
 * forecast(input: ForecastInput) {
 *   if (!knownCities.has(input.city)) throw new ToolError(`Unknown city: ${input.city}`);
 * }
 */
export class ToolError extends Error {
  readonly [TOOL_ERROR_BRAND] = true;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ToolError';
  }

  /** Recognises tool errors by brand, so two installed copies of the package still agree. */
  static isToolError(value: unknown): value is ToolError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_ERROR_BRAND] === true;
  }
}
