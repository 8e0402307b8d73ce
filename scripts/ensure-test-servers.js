// `pnpm test` and .ci/run make sure the programs the tests run for real are there: redis-server
// (packages/redis, apps/notes, docs/examples/scale-out.example.ts) and nginx (the docs' balancer
// recipe, apps/notes/test/scale-out-nginx.e2e.spec.ts) for the scale-out tests, and Chromium, the
// browser that opens the notes board through an MCP Apps host page
// (apps/notes/test/board.browser.e2e.spec.ts, driven by playwright-core: Debian's browser, never
// one `playwright install` downloads). On a fresh Debian machine
// as root the missing ones are installed from Debian's packages (one apt-get run for all); anywhere
// else it says what to install. Binaries that are present (on PATH, or where REDIS_SERVER=<path> /
// NGINX=<path> / CHROMIUM=<path> point) make this a no-op. Exits 1 when one is still missing: the tests would fail.
'use strict';
const { spawnSync } = require('node:child_process');

const SERVERS = [
  { name: 'redis-server', env: 'REDIS_SERVER', versionArg: '--version', debian: 'redis-server', brew: 'redis' },
  { name: 'nginx', env: 'NGINX', versionArg: '-v', debian: 'nginx', brew: 'nginx' },
  {
    name: 'chromium',
    env: 'CHROMIUM',
    versionArg: '--version',
    debian: 'chromium',
    brew: '--cask chromium',
    needs: 'The browser test of the notes board needs',
  },
];

const binaryOf = (server) => process.env[server.env] || server.name;
const present = (server) => spawnSync(binaryOf(server), [server.versionArg], { stdio: 'ignore' }).status === 0;

let missing = SERVERS.filter((server) => !present(server));
const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const apt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
// Only what would land on PATH: a binary named by its variable is the user's own.
const installable = missing.filter((server) => !process.env[server.env]);
if (asRoot && apt && installable.length > 0) {
  const packages = installable.map((server) => server.debian);
  process.stderr.write(`not installed: ${packages.join(', ')}; installing Debian's packages for the tests\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { stdio: 'inherit', env });
  missing = missing.filter((server) => !present(server));
}
for (const server of missing) {
  process.stderr.write(
    `${server.needs ?? 'The scale-out tests need'} ${server.name} (${binaryOf(server)} did not run). Install it (Debian/Ubuntu: apt-get install ${server.debian}; macOS: brew install ${server.brew}) or set ${server.env}=<path to ${server.name}>.\n`,
  );
}
if (missing.length > 0) process.exit(1);
