const INPUT_REQUIRED: unique symbol = Symbol.for('mcpkit.input-required') as never;

/**
 * Thrown inside a handler on a 2026-07-28 request when it asks the client for something not yet
 * answered: the dispatcher turns it into an input-required result. Handlers never see it.
 * @internal
 */
export class InputRequiredSignal extends Error {
  readonly [INPUT_REQUIRED] = true;

  constructor() {
    super('input required');
  }

  static is(value: unknown): value is InputRequiredSignal {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[INPUT_REQUIRED] === true;
  }
}
