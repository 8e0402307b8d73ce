/**
 * Thrown through the interceptors when a tool's arguments fail validation: the tool then
 * answers its usual `isError` result (SEP-1303). Filters never see it.
 */
export class InvalidArgumentsSignal extends Error {
  constructor(readonly problems: string[]) {
    super('invalid arguments');
  }
}
