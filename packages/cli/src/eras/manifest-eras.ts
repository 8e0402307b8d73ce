import type { McpApp, ServerCapabilities } from '@mcpkit/core';

/**
 * The revisions a manifest records, one per era: the newest legacy revision and the modern
 * one. Older legacy revisions publish the same items with fewer fields.
 */
export const MANIFEST_ERAS = ['2025-11-25', '2026-07-28'] as const;

/** A revision recorded in a manifest. */
export type ManifestEraName = (typeof MANIFEST_ERAS)[number];

/**
 * The newest legacy revision: what today's SDK clients speak, so the surface a generated
 * client types, a bundle lists and `mcpkit inspect` describes by default.
 */
export const DEFAULT_MANIFEST_ERA: ManifestEraName = MANIFEST_ERAS[0];

/** The tasks extension's id in 2026-07-28 capabilities (SEP-2663). */
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * The capabilities each era announces. 2025-11-25: the app's own (`initialize`). 2026-07-28
 * (`server/discover`): no `logging` (client logging is gone from that revision) and tasks as
 * an extension rather than a capability. manifest.spec.ts holds this to what the app answers.
 */
export function capabilitiesOf(app: McpApp, era: ManifestEraName): ServerCapabilities {
  if (era === '2025-11-25') return structuredClone(app.capabilities) as ServerCapabilities;
  const { logging: _logging, tasks, ...offered } = structuredClone(app.capabilities) as ServerCapabilities;
  if (tasks !== undefined) offered.extensions = { ...offered.extensions, [TASKS_EXTENSION]: {} };
  return offered;
}
