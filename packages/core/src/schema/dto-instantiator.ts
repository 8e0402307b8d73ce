import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import type { Constructor } from '../metadata/constructor';
import { isObject } from '../protocol/json-rpc';
import { parseDateTime } from './parse-date-time';

/** How a property's validated plain value becomes what the handler gets. */
export type Conversion =
  | { readonly kind: 'dto'; readonly dto: Constructor }
  | { readonly kind: 'date' }
  /** One of several DTOs, chosen by the value of `property`. */
  | { readonly kind: 'union'; readonly property: string; readonly choices: ReadonlyMap<unknown, Constructor>; readonly keep: boolean }
  /** An object whose every value converts the same way. */
  | { readonly kind: 'record'; readonly values: Conversion };

/** A property that converts: its conversion, applied to each item of an array when `each`. */
export interface ConvertedProperty {
  readonly key: string;
  readonly each: boolean;
  readonly conversion: Conversion;
}

/** What the schema builder learnt of one DTO class, for building its instances. */
export interface InstancePlan {
  /** Every property the DTO declares (its schema's `properties`), in order. */
  readonly declared: readonly string[];
  readonly converted: readonly ConvertedProperty[];
  /** `@Field({ default })` values, applied when the data has none and then converted like data. */
  readonly defaults: ReadonlyArray<readonly [string, unknown]>;
}

type Make = (plain: Record<string, unknown>) => object;
type Convert = (value: unknown) => unknown;

// class-transformer keeps these per class; any of them means plainToInstance must do the work.
function usesTransformerFeatures(dto: Constructor): boolean {
  const storage = defaultMetadataStorage as unknown as Record<string, Map<unknown, unknown> | undefined>;
  for (let type: unknown = dto; typeof type === 'function' && type !== Function.prototype; type = Object.getPrototypeOf(type)) {
    for (const key of ['_transformMetadatas', '_exposeMetadatas', '_excludeMetadatas']) if (storage[key]?.has(type)) return true;
  }
  return false;
}

/**
 * Copies the declared properties present in `plain` onto the instance. Compiled once per DTO to
 * one statement per property: with the names as constants, each access stays monomorphic, where
 * a loop over a list of names is a slow keyed lookup. Names are embedded as JSON strings; a name
 * that every object inherits (`toString` …) is taken only when the data has it as its own.
 */
function declaredCopier(keys: readonly string[]): (instance: Record<string, unknown>, plain: Record<string, unknown>) => void {
  const statements = keys.map((key) => {
    const name = JSON.stringify(key);
    const guard = key in Object.prototype ? `Object.prototype.hasOwnProperty.call(p, ${name}) && ` : '';
    return `if (${guard}(v = p[${name}]) !== undefined) o[${name}] = v;`;
  });
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function('o', 'p', `let v;\n${statements.join('\n')}`) as (instance: Record<string, unknown>, plain: Record<string, unknown>) => void;
}

// A default is copied for each instance: one handler changing its array must not change the next one's.
function fresh(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}

/**
 * Builds the DTO instance from validated plain data: equal to class-transformer's
 * `plainToInstance` (with `exposeDefaultValues`) for DTOs that use only `@Type`, taking only the
 * properties the DTOs declare (unknown ones never reach the handler), turning date-time strings
 * into `Date`s, choosing the class of a union by its discriminator and applying `@Field` defaults,
 * in one pass that never changes the plain data; undefined when some DTO uses other
 * class-transformer features (`@Transform`, `@Expose`, `@Exclude` …). Recursive DTOs build to any
 * depth (the data's depth is bounded by the message limits).
 */
export function buildInstantiator(dto: Constructor, plans: ReadonlyMap<Constructor, InstancePlan>): Make | undefined {
  const built = new Map<Constructor, Make>();
  const pending: Array<() => boolean> = [];

  const makerOf = (type: Constructor): Make => {
    const existing = built.get(type);
    if (existing) return existing;
    const plan = plans.get(type) ?? { declared: [], converted: [], defaults: [] };
    const copyDeclared = declaredCopier(plan.declared);
    const converters: Array<[string, Convert]> = [];
    const defaults = plan.defaults;
    const make: Make = (plain) => {
      // Like plainToInstance with exposeDefaultValues: the constructor sets defaults, the data wins;
      // only declared properties are taken.
      const instance = new type() as Record<string, unknown>;
      copyDeclared(instance, plain);
      // A default is published as JSON, so it is built like a value the client sent (a Date, a DTO instance).
      for (const [key, value] of defaults) if (instance[key] === undefined) instance[key] = fresh(value);
      for (const [key, convert] of converters) {
        const value = instance[key];
        if (value !== null && value !== undefined) instance[key] = convert(value);
      }
      return instance;
    };
    built.set(type, make);
    // Children are resolved after this class is known, so a class that contains itself finds its own maker.
    pending.push(() => {
      if (usesTransformerFeatures(type)) return false;
      for (const { key, each, conversion } of plan.converted) {
        const one = converterOf(conversion);
        converters.push([key, each ? (value) => (Array.isArray(value) ? value.map((item) => (item === null ? item : one(item))) : value) : one]);
      }
      return true;
    });
    return make;
  };

  const converterOf = (conversion: Conversion): Convert => {
    switch (conversion.kind) {
      case 'date':
        return (value) => (typeof value === 'string' ? parseDateTime(value) : value);
      case 'dto': {
        const make = makerOf(conversion.dto);
        return (value) => (isObject(value) ? make(value) : value);
      }
      case 'union': {
        const makers = new Map([...conversion.choices].map(([tag, type]) => [tag, makerOf(type)]));
        const { property, keep } = conversion;
        return (value) => {
          if (!isObject(value)) return value;
          const make = makers.get(value[property]);
          if (!make) return value;
          const instance = make(value) as Record<string, unknown>;
          if (keep) instance[property] = value[property];
          return instance;
        };
      }
      case 'record': {
        const each = converterOf(conversion.values);
        // fromEntries defines each key as its own property: a "__proto__" key stays data.
        return (value) => (isObject(value) ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, item === null ? item : each(item)])) : value);
      }
    }
  };

  const root = makerOf(dto);
  for (let index = 0; index < pending.length; index++) if (!pending[index]()) return undefined;
  return root;
}
