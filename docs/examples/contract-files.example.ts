import { buildManifest, buildMcpbManifest, buildServerJson, type BundlePackageJson } from '@mcpkit/cli';
import { createApp, Tool } from '@mcpkit/core';
import { createFetchHandler } from '@mcpkit/http';

class Clock {
  @Tool({ description: 'Tells the time in UTC', input: null, annotations: { readOnlyHint: true } })
  now(): string {
    return new Date().toISOString();
  }
}

export const clockApp = createApp({ name: 'clock', title: 'Clock', version: '2.0.0', providers: [Clock] });

// What `mcpkit server-json` and `mcpkit pack` read of package.json (here as an object).
export const clockPackage: BundlePackageJson = {
  name: '@example/clock-mcp',
  version: '2.0.0',
  description: 'Tells the time',
  mcpName: 'io.github.example/clock',
  mcpkit: {
    stdio: { entry: 'dist/main.js', args: ['--stdio'] },
    env: { CLOCK_ZONE: { description: 'The IANA time zone of the answers', default: 'UTC' } },
  },
};

/** What `mcpkit server-json --remote …` and the manifest.json of `mcpkit pack` hold, in-process. */
export function registryFiles(): { serverJson: Record<string, unknown>; mcpb: Record<string, unknown> } {
  const manifest = buildManifest(clockApp);
  return {
    serverJson: buildServerJson(clockPackage, manifest, { remote: 'https://clock.example.com/mcp' }),
    mcpb: buildMcpbManifest(clockPackage, manifest),
  };
}

// Experimental (SEP-2127 is a draft): the Server Card at /mcp/server-card.
export const clockHandler = createFetchHandler(clockApp, {
  serverCard: { name: 'io.github.example/clock', url: 'https://clock.example.com/mcp' },
  allowedHosts: ['clock.example.com'],
});
