import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import type { JsonSchema } from '../protocol/mcp-types';

/** A tool argument mirrored into an `Mcp-Param-{header}` HTTP header (2026-07-28, `x-mcp-header`). */
export interface HeaderParam {
  /** The name after `Mcp-Param-`, as the schema spells it. */
  readonly header: string;
  /** Property names from the arguments object down to the value. */
  readonly path: readonly string[];
  readonly type: 'string' | 'integer' | 'boolean';
}

// RFC 9110 token characters.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const MIRRORABLE: ReadonlySet<unknown> = new Set(['string', 'integer', 'boolean']);

/**
 * The `x-mcp-header` annotations of a published inputSchema, checked once at start-up: clients
 * drop a tool whose annotation is invalid, so a bad one is a definition error, not a silent loss.
 * Only `properties` chains count, as the spec says.
 */
export function headerParamsOf(schema: JsonSchema, owner: string): readonly HeaderParam[] {
  const found: HeaderParam[] = [];
  const seen = new Map<string, string>();
  const walk = (node: JsonSchema, path: readonly string[]): void => {
    const properties = node.properties;
    if (typeof properties !== 'object' || properties === null) return;
    for (const [name, child] of Object.entries(properties as Record<string, JsonSchema>)) {
      if (typeof child !== 'object' || child === null) continue;
      const here = [...path, name];
      const header = child['x-mcp-header'];
      if (header !== undefined) {
        const where = `${owner} argument ${here.join('.')}`;
        if (typeof header !== 'string' || !TOKEN.test(header)) {
          throw new DefinitionError(
            DefinitionErrorCode.INVALID_SCHEMA,
            `The x-mcp-header of ${where} must be a non-empty HTTP token; got ${JSON.stringify(header)}.`,
            ['Use letters, digits and !#$%&\'*+-.^_`|~ only, e.g. "Region".'],
          );
        }
        const types = Array.isArray(child.type) ? (child.type as unknown[]).filter((type) => type !== 'null') : [child.type];
        if (types.length !== 1 || !MIRRORABLE.has(types[0])) {
          throw new DefinitionError(DefinitionErrorCode.INVALID_SCHEMA, `The x-mcp-header of ${where} needs a string, integer or boolean property.`, [
            'Numbers, objects and arrays cannot be mirrored into a header; drop the header option or change the type.',
          ]);
        }
        const other = seen.get(header.toLowerCase());
        if (other !== undefined) {
          throw new DefinitionError(DefinitionErrorCode.INVALID_SCHEMA, `${owner} mirrors both ${other} and ${here.join('.')} into Mcp-Param-${header}.`, [
            'Header names are case-insensitive: give each argument its own name.',
          ]);
        }
        seen.set(header.toLowerCase(), here.join('.'));
        found.push(Object.freeze({ header, path: Object.freeze(here), type: types[0] as HeaderParam['type'] }));
      }
      walk(child, here);
    }
  };
  walk(schema, []);
  return Object.freeze(found);
}
