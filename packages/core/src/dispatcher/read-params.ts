import { InvalidParamsError } from '../errors/mcp-error';
import { isObject } from '../protocol/json-rpc';

/** `params[key]` when it is a string, else `-32602` naming the method and the field. */
export function requireString(params: Record<string, unknown>, key: string, method: string): string {
  const value = params[key];
  if (typeof value !== 'string') throw new InvalidParamsError(`${method} needs params.${key}, a string`);
  return value;
}

/** `params.arguments` when absent or an object, else `-32602`. */
export function optionalArguments(params: Record<string, unknown>, method: string): Record<string, unknown> {
  const args = params.arguments;
  if (args === undefined) return {};
  if (!isObject(args)) throw new InvalidParamsError(`${method} params.arguments must be an object`);
  return args;
}
