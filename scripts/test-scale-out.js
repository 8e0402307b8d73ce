// `pnpm test:scale-out`: every scale-out test file alone (after `pnpm build`, which the script
// entry runs first), and the wall time of that jest run, for docs/scale-out.md's "how long the
// scale-out suite takes". Arguments go to jest (e.g. --maxWorkers=1). `pnpm test` runs the same
// files among all the others; this is for measuring, not an extra CI step.
'use strict';
const { spawnSync } = require('node:child_process');
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const within = (dir, pattern) =>
  readdirSync(join(root, dir))
    .filter((name) => pattern.test(name))
    .map((name) => join(dir, name));

// The Redis implementations and their faults, the memory defaults held to the same contracts,
// and the notes app scaled out (behind the fetch balancer and behind nginx).
const files = [
  ...within('packages/redis/test', /\.spec\.ts$/),
  'packages/http/test/memory-contracts.int.spec.ts',
  ...within('apps/notes/test', /^scale-out.*\.e2e\.spec\.ts$/),
];

const started = process.hrtime.bigint();
const jest = spawnSync(process.execPath, [require.resolve('jest/bin/jest'), '--runTestsByPath', ...files, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
process.stdout.write(`\nscale-out suite: ${files.length} files, wall time ${seconds.toFixed(1)} s (jest exit ${jest.status ?? jest.signal})\n`);
process.exit(jest.status ?? 1);
