const MAX = 128;

/** A name by the MCP tool-name rules (1 to 128 of `A-Z a-z 0-9 _ - .`): every other run of characters becomes one `_`. */
export function sanitizeName(raw: string): string {
  const name = raw
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX);
  return name === '' ? 'operation' : name;
}

/** The name of an operation without an `operationId`: its method and path (`get_pet_petId`). */
export function fallbackName(method: string, path: string): string {
  return sanitizeName(`${method.toLowerCase()}${path.replace(/[{}]/g, '')}`);
}

/**
 * Hands out names in document order, each once: the second `getPet` becomes `getPet_2` (cut to
 * fit 128 characters), so the same document always gives the same names.
 */
export class NameAllocator {
  private readonly taken = new Set<string>();

  take(wanted: string): string {
    let name = wanted;
    for (let n = 2; this.taken.has(name); n += 1) {
      const suffix = `_${n}`;
      name = `${wanted.slice(0, MAX - suffix.length)}${suffix}`;
    }
    this.taken.add(name);
    return name;
  }
}
