// `pnpm test` runs the scale-out tests against a real redis-server (packages/redis, apps/notes,
// docs/examples/scale-out.example.ts). On a fresh Debian machine as root it installs Debian's
// package, as .ci/run does; anywhere else it says what to install. A present redis-server (on
// PATH, or REDIS_SERVER=<path>) makes this a no-op.
'use strict';
const { spawnSync } = require('node:child_process');

const binary = process.env.REDIS_SERVER || 'redis-server';
const present = () => spawnSync(binary, ['--version'], { stdio: 'ignore' }).status === 0;

if (!present()) {
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (asRoot && apt && binary === 'redis-server') {
    process.stderr.write("redis-server is not installed: installing Debian's package for the scale-out tests\n");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    spawnSync('apt-get', ['install', '-y', '-qq', 'redis-server'], { stdio: 'inherit', env });
  }
  if (!present()) {
    process.stderr.write(
      `The scale-out tests need redis-server (${binary} did not run). Install it (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) or set REDIS_SERVER=<path to redis-server>.\n`,
    );
    process.exit(1);
  }
}
