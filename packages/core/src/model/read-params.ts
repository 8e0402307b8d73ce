import { InvalidParamsError } from '../errors/mcp-error';
import { isObject } from '../protocol/json-rpc';

/** `params[key]` when it is a string, else `-32602` naming the method and the field. */
export function requireString(params: Record<string, unknown>, key: string, method: string): string {
  const value = params[key];
  if (typeof value !== 'string') throw new InvalidParamsError(`${method} needs params.${key}, a string`);
  return value;
}

/**
 * `params[key]` when it is a string of at most `maxLength` characters (`maxUriLength`), else
 * `-32602`: a URI is matched against every resource template, so its length is bounded first.
 */
export function requireUri(params: Record<string, unknown>, key: string, method: string, maxLength: number): string {
  return checkUriLength(requireString(params, key, method), `${method} params.${key}`, maxLength);
}

/** `uri` when it has at most `maxLength` characters, else `-32602` naming where it was (`what`) and the option. */
export function checkUriLength(uri: string, what: string, maxLength: number): string {
  if (uri.length > maxLength) throw new InvalidParamsError(`${what} is ${uri.length} characters long, over the limit of ${maxLength} (maxUriLength)`);
  return uri;
}

/** `params.arguments` when absent or an object, else `-32602`. */
export function optionalArguments(params: Record<string, unknown>, method: string): Record<string, unknown> {
  const args = params.arguments;
  if (args === undefined) return {};
  if (!isObject(args)) throw new InvalidParamsError(`${method} params.arguments must be an object`);
  return args;
}
