import type { JsonSchema } from '../protocol/mcp-types';

/** Returns the value without the properties its schema does not name; the input is never changed. */
export type KnownPropertiesPicker = (value: unknown) => unknown;

const DROP = Symbol('drop');
const identity: KnownPropertiesPicker = (value) => value;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Builds, once per schema, what drops unknown properties from a valid input before the handler
 * sees it: at every object that lists `properties`, through nested objects and array items (the
 * shapes mcpkit generates from DTOs). Copy-on-write: an input with nothing unknown comes back as
 * the same object, untouched; otherwise only the objects on the path to an unknown key are
 * copied. Validation itself never removes anything, so the incoming message stays exactly what
 * the client sent (the MRTR `requestState` digests it).
 */
export function knownPropertiesPicker(schema: JsonSchema): KnownPropertiesPicker {
  return pickerFor(schema) ?? identity;
}

function pickerFor(schema: unknown): KnownPropertiesPicker | undefined {
  if (!isPlainObject(schema)) return undefined;
  if (isPlainObject(schema.properties)) return objectPicker(schema.properties);
  if (isPlainObject(schema.items)) {
    const each = pickerFor(schema.items);
    return each && arrayPicker(each);
  }
  return undefined;
}

function objectPicker(properties: Record<string, unknown>): KnownPropertiesPicker {
  const known = new Set(Object.keys(properties));
  const children = new Map<string, KnownPropertiesPicker>();
  for (const key of known) {
    const child = pickerFor(properties[key]);
    if (child) children.set(key, child);
  }
  return (value) => {
    if (!isPlainObject(value)) return value;
    let out: Record<string, unknown> | undefined;
    for (const key in value) {
      const original = value[key];
      const child = known.has(key) ? children.get(key) : undefined;
      const kept = !known.has(key) ? DROP : child ? child(original) : original;
      if (out === undefined) {
        if (kept === original) continue;
        // First change: copy the keys before this one, all kept as they were.
        out = {};
        for (const earlier in value) {
          if (earlier === key) break;
          out[earlier] = value[earlier];
        }
      }
      if (kept !== DROP) out[key] = kept;
    }
    return out ?? value;
  };
}

function arrayPicker(each: KnownPropertiesPicker): KnownPropertiesPicker {
  return (value) => {
    if (!Array.isArray(value)) return value;
    let out: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const kept = each(value[index]);
      if (out === undefined) {
        if (kept === value[index]) continue;
        out = value.slice(0, index);
      }
      out.push(kept);
    }
    return out ?? value;
  };
}
