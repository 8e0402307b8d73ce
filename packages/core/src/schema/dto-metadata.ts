import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { FIELD_LIST_METADATA } from '../metadata/metadata-keys';
import type { Constructor } from '../metadata/constructor';

/** The JSON Schema type of `String`, `Number` and `Boolean`. */
export const PRIMITIVE_TYPES: ReadonlyMap<unknown, string> = new Map<unknown, string>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
]);

/** A class that can be a DTO: any function but the built-in value types. */
export function isDtoClass(value: unknown): value is Constructor {
  return typeof value === 'function' && ![String, Number, Boolean, Array, Object, Date].includes(value as never);
}

/** What TypeScript recorded as the property's type (`emitDecoratorMetadata`). */
export function designTypeOf(dto: Constructor, property: string): unknown {
  return Reflect.getMetadata('design:type', dto.prototype, property);
}

/** The JSON Schema type TypeScript's recorded type says (`array`, `string` …), if any. */
export function designSchemaType(dto: Constructor, property: string): string | undefined {
  const type = designTypeOf(dto, property);
  if (type === Array) return 'array';
  return PRIMITIVE_TYPES.get(type);
}

/** What `@Type(() => X)` (class-transformer) says of a property, if anything. */
export function typeMetadataOf(dto: Constructor, property: string) {
  return defaultMetadataStorage.findTypeMetadata(dto, property);
}

/** The class-validator metadata of a DTO, grouped by property in declaration order. */
export function readValidationMetadata(dto: Constructor): Map<string, ValidationMetadata[]> {
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(dto, '', false, false, undefined);
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const metadata of metadatas) {
    const list = byProperty.get(metadata.propertyName) ?? [];
    list.push(metadata);
    byProperty.set(metadata.propertyName, list);
  }
  return byProperty;
}

/** The properties `@Field` names, the class's own and its parents', in declaration order. */
export function readFieldNames(dto: Constructor): string[] {
  const names: string[] = [];
  for (let proto = dto.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of (Reflect.getOwnMetadata(FIELD_LIST_METADATA, proto) as string[] | undefined) ?? []) {
      if (!names.includes(name)) names.push(name);
    }
  }
  return names;
}

/** True when the class carries class-validator (or `@Field`) metadata, i.e. is usable as a DTO. */
export function hasDtoMetadata(dto: Constructor): boolean {
  return readValidationMetadata(dto).size > 0 || readFieldNames(dto).length > 0;
}

/** A fresh instance, to read what the class initialises; undefined when its constructor needs arguments it did not get. */
export function sampleOf(dto: Constructor): Record<string, unknown> | undefined {
  try {
    return new dto() as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
