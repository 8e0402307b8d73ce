import { FIELD_LIST_METADATA, FIELD_METADATA } from '../metadata/metadata-keys';
import type { Constructor } from '../metadata/constructor';
import type { JsonSchema } from '../protocol/mcp-types';
import { assertExperimentalDecorators } from './experimental-decorators';

/** A type a field option names: a DTO class, or `String`, `Number`, `Boolean` (`Date` for record values). */
export type FieldType = Constructor | StringConstructor | NumberConstructor | BooleanConstructor | DateConstructor;

/** Schema facts about a DTO property that class-validator decorators cannot carry. */
export interface FieldOptions {
  description?: string;
  title?: string;
  /**
   * Accept `null` as well: the published type becomes `[T, "null"]`. The property is still
   * required unless it also has `@IsOptional()` (optional means absent, not null).
   */
  nullable?: boolean;
  examples?: unknown[];
  deprecated?: boolean;
  /** Published as the JSON Schema `default` and applied when the client leaves the property out. */
  default?: unknown;
  /**
   * A JSON Schema `format` for a string: `uri`, `email`, `uuid`, `date`, `date-time`, `time`,
   * `hostname`, `ipv4`, `ipv6` … (ajv-formats' names). Enforced as published.
   */
  format?: string;
  /**
   * An object used as a map: every value has this type (`Record<string, T>`). A DTO class's values
   * are built into instances.
   *
   * @example
   * @Field({ record: String }) labels?: Record<string, string>;
   */
  record?: FieldType;
  /**
   * One of several types: DTO classes told apart by `discriminator` (a property each declares
   * with one value, e.g. `@Equals('circle') kind`), or only `String`, `Number`, `Boolean`. The
   * handler receives an instance of the matching class. On an array (`@IsArray()`), each item.
   *
   * @example
   * @Field({ oneOf: [Circle, Square], discriminator: 'kind' }) shape: Circle | Square;
   */
  oneOf?: readonly FieldType[];
  /** The property whose value picks the class of a `oneOf`. */
  discriminator?: string;
  /**
   * A raw JSON Schema for this property alone, published and enforced as written (the rest of
   * the DTO stays declarative); the handler receives the value as sent. `{}` accepts any JSON.
   */
  schema?: JsonSchema;
  /**
   * 2026-07-28 over HTTP: clients mirror this argument into an `Mcp-Param-{header}` header so
   * gateways can route on it, and the server checks the header against the body. String, integer
   * or boolean properties only; never for secrets.
   */
  header?: string;
}

/**
 * Describes a DTO property for the published JSON Schema.
 *
 * @example
 * class SearchInput {
 *   @Field({ description: 'Words to look for' })
 *   @IsString()
 *   query: string;
 * }
 */
export function Field(options: FieldOptions): PropertyDecorator {
  return (target, propertyKey) => {
    assertExperimentalDecorators('@Field', propertyKey);
    if (typeof propertyKey !== 'string') return;
    Reflect.defineMetadata(FIELD_METADATA, { ...options }, target, propertyKey);
    const own: string[] = Reflect.getOwnMetadata(FIELD_LIST_METADATA, target) ?? [];
    if (!own.includes(propertyKey)) Reflect.defineMetadata(FIELD_LIST_METADATA, [...own, propertyKey], target);
  };
}
