import { isConstructor, type Constructor } from '../metadata/constructor';
import type { JsonSchema } from '../protocol/mcp-types';
import type { InputParser, ValidatorFactory } from '../validation/validator-factory';
import { dtoToJsonSchema } from './dto-to-json-schema';

/** A requested schema and the checker of the client's answer to it. */
export interface ElicitationSchema {
  schema: JsonSchema;
  parse: InputParser;
}

const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean']);

function isFlat(property: Record<string, unknown>): boolean {
  const type = property.type;
  if (typeof type === 'string' && PRIMITIVES.has(type)) return true;
  if (Array.isArray(property.enum)) return true;
  // Multi-select enums (2025-11-25, SEP-1330): an array of enumerated strings.
  return type === 'array' && typeof property.items === 'object' && property.items !== null;
}

/**
 * The `requestedSchema` of an elicitation: from a DTO (flat primitive fields, as the spec
 * restricts form elicitation) or given as is. Built once per DTO or schema object.
 */
export function elicitationSchema(validators: ValidatorFactory, source: Constructor | JsonSchema): ElicitationSchema {
  return validators.memo(source, () => {
    if (!isConstructor(source)) return { schema: source, parse: validators.inputParser({ schema: source, what: 'The requestedSchema of an elicitation' }) };
    const { schema, needsClassValidator, instantiate, schemaChecked } = dtoToJsonSchema(source as Constructor);
    const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    for (const [name, property] of Object.entries(properties)) {
      if (!isFlat(property)) {
        throw new TypeError(`Elicitation DTO ${source.name}.${name} is not a primitive: form elicitation asks for strings, numbers, booleans and enums only`);
      }
    }
    return {
      schema,
      parse: validators.inputParser({
        schema,
        dto: source as Constructor,
        needsClassValidator,
        stripUnknown: true,
        generated: true,
        instantiate,
        schemaChecked,
      }),
    };
  });
}
