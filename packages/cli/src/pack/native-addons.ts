/** What a bundle's native addons tie it to: the platform, CPU and Node ABI they were built on. */
export interface NativeAddons {
  /** Bundle paths of the compiled addons (`*.node`). */
  files: string[];
  /** The `compatibility` entry of an MCPB manifest that keeps other hosts from installing it. */
  compatibility: { platforms: string[]; runtimes: { node: string } };
  /** One line for the person packing: what the bundle is tied to, and why. */
  note: string;
}

/**
 * The native addons among a bundle's paths, and the compatibility they impose. An addon is
 * machine code for one OS and CPU; one built against V8's own API (not Node-API; the package
 * cannot be told apart from its files) loads only on Node of the same major version. So the
 * bundle declares the packing platform and Node major: a desktop client refuses it up front
 * instead of the server dying at its first `require`.
 *
 * @example
 * nativeAddons(['dist/main.js', 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'], 'linux', 'x64', 'v20.20.2')
 * // → compatibility { platforms: ['linux'], runtimes: { node: '>=20.0.0 <21.0.0' } }
 */
export function nativeAddons(paths: readonly string[], platform: string, arch: string, nodeVersion: string): NativeAddons | undefined {
  const files = paths.filter((path) => path.endsWith('.node'));
  if (files.length === 0) return undefined;
  const major = Number(/^v?(\d+)/.exec(nodeVersion)?.[1]);
  const node = `>=${major}.0.0 <${major + 1}.0.0`;
  const shown = files.length === 1 ? files[0] : `${files[0]} and ${files.length - 1} more`;
  return {
    files,
    compatibility: { platforms: [platform], runtimes: { node } },
    note:
      `the bundle holds native addons (${shown}), built for ${platform}-${arch} on Node ${major}: ` +
      `it declares compatibility with ${platform} and Node ${node}. Pack on the platform and Node the desktop client runs, ` +
      'or set "mcpkit": { "compatibility": … } in package.json for addons that load anywhere (Node-API, prebuilt for each platform).',
  };
}
