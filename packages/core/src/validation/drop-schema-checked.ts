import type { ValidationError } from 'class-validator';
import type { Constructor } from '../metadata/constructor';

/**
 * Per DTO class and property, the class-validator constraints (by name: `isUrl`, `isEmail` …)
 * whose meaning the published schema already carries, so ajv has enforced them.
 */
export type SchemaChecked = ReadonlyMap<Constructor, ReadonlyMap<string, ReadonlySet<string>>>;

/**
 * class-validator's errors without those the published schema answers for. When a DTO needs
 * class-validator for one constraint JSON Schema cannot say, class-validator runs every
 * decorator of the DTO, and its own reading of some is stricter than their published form
 * (`@IsUrl()` refuses the `data:` URIs that `format: "uri"` accepts, `@IsEmail()` wants a TLD of
 * two letters): kept, they would refuse arguments the client was told are valid. Returns the same
 * array when nothing is dropped.
 */
export function dropSchemaChecked(errors: ValidationError[], checked: SchemaChecked): ValidationError[] {
  let kept: ValidationError[] | undefined;
  for (let index = 0; index < errors.length; index++) {
    const error = errors[index];
    const trimmed = trim(error, checked);
    if (trimmed === error && kept === undefined) continue;
    kept ??= errors.slice(0, index);
    if (trimmed) kept.push(trimmed);
  }
  return kept ?? errors;
}

/** The error without its schema-checked constraints (and children); undefined when nothing is left. */
function trim(error: ValidationError, checked: SchemaChecked): ValidationError | undefined {
  const names = error.target ? checked.get(error.target.constructor as Constructor)?.get(error.property) : undefined;
  let constraints = error.constraints;
  if (constraints && names) {
    const left = Object.entries(constraints).filter(([name]) => !names.has(name));
    if (left.length !== Object.keys(constraints).length) constraints = left.length > 0 ? Object.fromEntries(left) : undefined;
  }
  const children = error.children?.length ? dropSchemaChecked(error.children, checked) : error.children;
  if (constraints === error.constraints && children === error.children) return error;
  if (constraints === undefined && !children?.length) return undefined;
  return Object.assign(Object.create(Object.getPrototypeOf(error) as object) as ValidationError, error, { constraints, children });
}
