// The one list of the revisions this server speaks: everything else asks the era codecs.

/** The legacy-era revisions, oldest first. */
export const LEGACY_PROTOCOL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;

export type LegacyProtocolVersion = (typeof LEGACY_PROTOCOL_VERSIONS)[number];

/** The newest legacy-era revision: the answer when a client asks for one we do not speak. */
export const LATEST_LEGACY_PROTOCOL_VERSION: LegacyProtocolVersion = '2025-11-25';

/** The stateless revisions: every request carries its version and client in `_meta`. */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;

/** Every revision served, newest era first: what `server/discover` and `-32022` list. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([...MODERN_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS]);

const SUPPORTED = new Set<string>(LEGACY_PROTOCOL_VERSIONS);

/**
 * Picks the revision to answer an `initialize` with: the client's own when we speak it,
 * otherwise our latest (lifecycle, "Version Negotiation").
 */
export function negotiateProtocolVersion(requested: string): LegacyProtocolVersion {
  return SUPPORTED.has(requested) ? (requested as LegacyProtocolVersion) : LATEST_LEGACY_PROTOCOL_VERSION;
}

/** Revision dates compare correctly as strings (`YYYY-MM-DD`). */
export function isAtLeast(version: string, minimum: string): boolean {
  return version >= minimum;
}
