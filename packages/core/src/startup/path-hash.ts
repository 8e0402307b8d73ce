// Used by the start-up caches (export-names-cache.ts, cached-bundle.ts) to name their files. Depends on nothing.

/** FNV-1a: a short, stable name for a path (node:crypto would cost more than this saves). */
export function hashOf(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}
