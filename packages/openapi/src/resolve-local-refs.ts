type Doc = Record<string, unknown>;

function isRecord(value: unknown): value is Doc {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON pointer's target in the document (`#/components/schemas/Pet`), or undefined. */
function target(document: Doc, ref: string): unknown {
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isRecord(node) && !Array.isArray(node)) return undefined;
    node = (node as Doc)[key];
  }
  return node;
}

/**
 * A copy of the document with every local `$ref` (`#/…`) replaced by what it points to, done
 * synchronously: each target is resolved once and shared, so a schema that refers to itself
 * becomes a cycle of objects, as `@apidevtools/swagger-parser` leaves it. A `$ref` with other
 * keywords beside it (3.1) keeps them, the target taken as `allOf`.
 *
 * @throws Error naming a `$ref` to another file or URL (`loadOpenApi` reads those), or one that
 *   points nowhere.
 */
export function resolveLocalRefs(document: Doc): Doc {
  const resolved = new Map<string, unknown>();
  const copies = new Map<object, unknown>();

  const resolveRef = (ref: string): unknown => {
    if (!ref.startsWith('#/') && ref !== '#') {
      throw new Error(`The $ref ${JSON.stringify(ref)} names another file or URL: read such a document with fromOpenApi, which resolves it.`);
    }
    if (resolved.has(ref)) return resolved.get(ref);
    const found = ref === '#' ? document : target(document, ref);
    if (found === undefined) throw new Error(`The $ref ${JSON.stringify(ref)} points to nothing in the document.`);
    if (!isRecord(found) && !Array.isArray(found)) return found;
    // Placed before it is filled, so a reference back to it inside finds it: the cycle is kept.
    const placeholder: Doc | unknown[] = Array.isArray(found) ? [] : {};
    resolved.set(ref, placeholder);
    const filled = walk(found);
    if (Array.isArray(placeholder)) placeholder.push(...(filled as unknown[]));
    else Object.assign(placeholder, filled);
    return placeholder;
  };

  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isRecord(node)) return node;
    if (copies.has(node)) return copies.get(node);
    if (typeof node.$ref === 'string') {
      const { $ref, ...beside } = node;
      const shared = resolveRef($ref as string);
      // A Reference Object's own summary and description only annotate it (OpenAPI 3.1).
      if (Object.keys(beside).every((key) => key === 'summary' || key === 'description')) return shared;
      return { allOf: [shared], ...(walk(beside) as Doc) };
    }
    const copy: Doc = {};
    copies.set(node, copy);
    for (const [key, value] of Object.entries(node)) copy[key] = walk(value);
    return copy;
  };

  return walk(document) as Doc;
}
