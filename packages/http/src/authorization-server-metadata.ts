/**
 * The issuer's authorization server metadata (RFC 8414), which must name the very same issuer
 * (2026-07-28: fetched metadata carries an identical `issuer`), with `field` a string URL.
 */
export async function metadataUrl(issuer: string, field: 'jwks_uri' | 'introspection_endpoint'): Promise<string> {
  const response = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/oauth-authorization-server`, { signal: AbortSignal.timeout(5_000) });
  if (!response.ok) throw new Error(`authorization server metadata answered ${response.status}`);
  const metadata = (await response.json()) as Record<string, unknown>;
  if (metadata.issuer !== issuer) throw new Error('authorization server metadata names another issuer');
  const url = metadata[field];
  if (typeof url !== 'string') throw new Error(`authorization server metadata has no ${field}`);
  return url;
}
