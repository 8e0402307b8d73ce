import { FIELD_LIST_METADATA, FIELD_METADATA } from '../metadata/metadata-keys';

/** Schema facts about a DTO property that class-validator decorators cannot carry. */
export interface FieldOptions {
  description?: string;
  title?: string;
  /** Accept `null` as well (optional fields reject `null` otherwise). */
  nullable?: boolean;
  examples?: unknown[];
  deprecated?: boolean;
  /** Published as the JSON Schema `default`; assign the same value in the class to apply it. */
  default?: unknown;
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
    if (typeof propertyKey !== 'string') return;
    Reflect.defineMetadata(FIELD_METADATA, { ...options }, target, propertyKey);
    const own: string[] = Reflect.getOwnMetadata(FIELD_LIST_METADATA, target) ?? [];
    if (!own.includes(propertyKey)) Reflect.defineMetadata(FIELD_LIST_METADATA, [...own, propertyKey], target);
  };
}
