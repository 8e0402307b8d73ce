import type { OperationParameter } from './operation';

// RFC 3986 reserved characters, left as they are for a parameter with allowReserved.
const RESERVED = /%(3A|2F|3F|23|5B|5D|40|21|24|26|27|28|29|2A|2B|2C|3B|3D)/gi;

function encode(value: string, allowReserved = false): string {
  const encoded = encodeURIComponent(value);
  return allowReserved ? encoded.replace(RESERVED, (escape) => decodeURIComponent(escape)) : encoded;
}

function scalar(value: unknown): string {
  return typeof value === 'string' ? value : value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A path parameter's value in the path, by its style (OpenAPI §"Style Values": `simple`, the
 * default, `label`, `matrix`), each piece percent-encoded so a value never reaches another path
 * segment (`../admin` stays `..%2Fadmin`).
 */
export function pathValue(parameter: OperationParameter, value: unknown): string {
  const { name, style, explode } = parameter;
  const pieces = (items: string[], joiner: string) => items.join(joiner);
  if (Array.isArray(value)) {
    const items = value.map((item) => encode(scalar(item)));
    if (style === 'label') return `.${pieces(items, explode ? '.' : ',')}`;
    if (style === 'matrix') return explode ? items.map((item) => `;${encode(name)}=${item}`).join('') : `;${encode(name)}=${pieces(items, ',')}`;
    return pieces(items, ',');
  }
  if (isRecord(value)) {
    const entries = Object.entries(value).map(([key, item]) => [encode(key), encode(scalar(item))] as const);
    const flat = explode ? entries.map(([key, item]) => `${key}=${item}`) : entries.flat();
    if (style === 'label') return `.${flat.join(explode ? '.' : ',')}`;
    if (style === 'matrix') return explode ? entries.map(([key, item]) => `;${key}=${item}`).join('') : `;${encode(name)}=${flat.join(',')}`;
    return flat.join(',');
  }
  const one = encode(scalar(value));
  if (style === 'label') return `.${one}`;
  if (style === 'matrix') return `;${encode(name)}=${one}`;
  return one;
}

/** A query parameter as `name=value` pairs, already encoded, by its style and explode (default `form`, exploded). */
export function queryPairs(parameter: OperationParameter, value: unknown): string[] {
  const { style, explode, allowReserved } = parameter;
  const name = encode(parameter.name);
  const enc = (text: string) => encode(text, allowReserved);
  if (Array.isArray(value)) {
    const items = value.map((item) => enc(scalar(item)));
    if (style === 'spaceDelimited' && !explode) return [`${name}=${items.join('%20')}`];
    if (style === 'pipeDelimited' && !explode) return [`${name}=${items.join('|')}`];
    return explode ? items.map((item) => `${name}=${item}`) : [`${name}=${items.join(',')}`];
  }
  if (isRecord(value)) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    if (style === 'deepObject') return entries.map(([key, item]) => `${name}%5B${encode(key)}%5D=${enc(scalar(item))}`);
    if (explode) return entries.map(([key, item]) => `${encode(key)}=${enc(scalar(item))}`);
    return [`${name}=${entries.map(([key, item]) => `${enc(key)},${enc(scalar(item))}`).join(',')}`];
  }
  return [`${name}=${enc(scalar(value))}`];
}

/** A header parameter's value (`simple` style): arrays and objects as comma-separated lists. */
export function headerValue(parameter: OperationParameter, value: unknown): string {
  if (Array.isArray(value)) return value.map(scalar).join(',');
  if (isRecord(value))
    return Object.entries(value)
      .map(([key, item]) => (parameter.explode ? `${key}=${scalar(item)}` : `${key},${scalar(item)}`))
      .join(',');
  return scalar(value);
}

/** A cookie parameter as `name=value` (`form` style), the value percent-encoded. */
export function cookiePair(parameter: OperationParameter, value: unknown): string {
  const text = Array.isArray(value)
    ? value.map(scalar).join(',')
    : isRecord(value)
      ? Object.entries(value)
          .flatMap(([key, item]) => [key, scalar(item)])
          .join(',')
      : scalar(value);
  return `${parameter.name}=${encodeURIComponent(text)}`;
}
