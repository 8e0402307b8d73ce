function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The values an `example` and an `examples` map (OpenAPI's Example Objects) give, in document order. */
export function examplesOf(holder: Record<string, unknown> | undefined): unknown[] {
  if (holder === undefined) return [];
  const found: unknown[] = [];
  if (holder.example !== undefined) found.push(holder.example);
  if (isRecord(holder.examples)) {
    for (const example of Object.values(holder.examples)) if (isRecord(example) && example.value !== undefined) found.push(example.value);
  }
  return found;
}

/**
 * The examples of a schema: its own (`example`, 3.1's `examples` array), else one assembled from
 * its properties' own examples as documentation tools show it (an array of its item's example,
 * or empty). Undefined when a required property has none.
 */
export function schemaExamples(schema: unknown, seen: Set<object> = new Set()): unknown[] {
  if (!isRecord(schema) || seen.has(schema)) return [];
  const own = [...(schema.example !== undefined ? [schema.example] : []), ...(Array.isArray(schema.examples) ? (schema.examples as unknown[]) : [])];
  if (own.length > 0) return own;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return [schema.enum[0]];
  seen.add(schema);
  try {
    if (schema.type === 'array') {
      const [item] = schemaExamples(schema.items, seen);
      return [item === undefined ? [] : [item]];
    }
    if (!isRecord(schema.properties)) return [];
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const assembled: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(schema.properties)) {
      const [value] = schemaExamples(property, seen);
      if (value !== undefined) assembled[name] = value;
      else if (required.has(name)) return [];
    }
    return Object.keys(assembled).length > 0 ? [assembled] : [];
  } finally {
    seen.delete(schema);
  }
}
