import { nativeAddons } from './native-addons';

describe('nativeAddons', () => {
  it('finds nothing in a bundle of JavaScript', () => {
    expect(nativeAddons(['dist/main.js', 'node_modules/ajv/dist/ajv.js', 'package.json'], 'linux', 'x64', 'v20.20.2')).toBeUndefined();
  });

  it('ties a bundle with an addon to the packing platform and Node major', () => {
    const found = nativeAddons(
      ['dist/main.js', 'node_modules/better-sqlite3/build/Release/better_sqlite3.node', 'node_modules/x/prebuilds/linux-x64/x.node'],
      'linux',
      'x64',
      'v24.22.3',
    );
    expect(found?.files).toEqual(['node_modules/better-sqlite3/build/Release/better_sqlite3.node', 'node_modules/x/prebuilds/linux-x64/x.node']);
    expect(found?.compatibility).toEqual({ platforms: ['linux'], runtimes: { node: '>=24.0.0 <25.0.0' } });
    expect(found?.note).toContain('better_sqlite3.node and 1 more');
    expect(found?.note).toContain('linux-x64 on Node 24');
  });

  it('does not take a folder or a name that merely contains .node for an addon', () => {
    expect(nativeAddons(['node_modules/a.node.js', 'node_modules/.node/readme.md'], 'darwin', 'arm64', 'v22.1.0')).toBeUndefined();
  });
});
