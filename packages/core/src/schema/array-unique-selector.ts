import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/**
 * Whether an `@ArrayUnique` compares its items through a selector (`@ArrayUnique((tag) => tag.id)`),
 * which JSON Schema cannot say. class-validator keeps the selector in a closure, not in the
 * metadata, so its check is asked once at start-up about two distinct empty objects: unique by
 * reference, the same (or a throw) through any selector that reads them. A selector that tells
 * them apart (`(item) => item`) compares as no selector does.
 */
export function arrayUniqueSelects(metadata: ValidationMetadata): boolean {
  const constraint = getMetadataStorage().getTargetValidatorConstraints(metadata.constraintCls)[0] as
    { instance: { validate(value: unknown, args: unknown): unknown } } | undefined;
  if (constraint === undefined) return true;
  try {
    const probe = [{}, {}];
    return constraint.instance.validate(probe, { value: probe, constraints: [], targetName: '', object: {}, property: metadata.propertyName }) !== true;
  } catch {
    return true;
  }
}
