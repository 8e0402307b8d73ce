/**
 * Sets `record[key]` as an own property whatever the key: a plain assignment of `__proto__`
 * (a parameter, a property or a keyword a document may name) would set the record's prototype
 * instead, and the key would be lost.
 */
export function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}
