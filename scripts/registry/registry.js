// A throwaway npm registry for the tests: Verdaccio (a devDependency) on a loopback port, with its
// own storage and config in a temporary folder. `@mcpkit/*` lives only there (no uplink: a
// version that was not published here does not exist); everything else is proxied to the npm
// registry this machine's npm is configured with, so third-party dependencies install.
'use strict';

const { spawn, execFileSync } = require('node:child_process');
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { freePort } = require('../free-port');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const VERDACCIO = require.resolve('verdaccio/bin/verdaccio');

/** The registry npm uses on this machine (`npm config get registry`), Verdaccio's uplink. */
function upstreamRegistry() {
  try {
    const url = execFileSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8' }).trim();
    if (/^https?:\/\//.test(url)) return url;
  } catch {
    // npm missing or broken: the public registry, and the install that needs it says what failed.
  }
  return 'https://registry.npmjs.org/';
}

function config(dir) {
  // JSON is YAML: no YAML writer needed.
  return JSON.stringify(
    {
      storage: join(dir, 'storage'),
      auth: { htpasswd: { file: join(dir, 'htpasswd') } },
      uplinks: { npmjs: { url: upstreamRegistry(), timeout: '120s', maxage: '30m' } },
      packages: {
        '@mcpkit/*': { access: '$all', publish: '$authenticated', unpublish: '$authenticated' },
        '**': { access: '$all', publish: '$authenticated', proxy: 'npmjs' },
      },
      web: { enable: false },
      max_body_size: '200mb',
      log: { type: 'stdout', format: 'json', level: 'warn' },
    },
    null,
    2,
  );
}

/**
 * Starts Verdaccio and resolves once it answers `/-/ping`, with a user registered for publishing.
 * `stop()` kills it by its PID (also on this process's exit) and removes its folder.
 *
 * @returns {Promise<{ url: string, dir: string, pid: number, token: string, npmrc: (file: string) => void, log: () => string, stop: () => void }>}
 */
async function startRegistry({ timeoutMs = 60_000 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-registry-'));
  writeFileSync(join(dir, 'config.yaml'), config(dir));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const child = spawn(process.execPath, [VERDACCIO, '--config', join(dir, 'config.yaml'), '--listen', `127.0.0.1:${port}`], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk) => {
    output += chunk.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = null;
  child.on('exit', (code, signal) => (exited = { code, signal }));
  const kill = () => {
    if (exited === null) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  process.once('exit', kill);
  const stop = () => {
    kill();
    process.removeListener('exit', kill);
    rmSync(dir, { recursive: true, force: true });
  };
  const log = () => output;

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited !== null) {
      stop();
      throw new Error(`Verdaccio exited (${JSON.stringify(exited)}) before it answered on ${url}:\n${output.slice(-3000)}`);
    }
    try {
      const ping = await fetch(`${url}-/ping`);
      if (ping.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      stop();
      throw new Error(`Verdaccio did not answer on ${url} within ${timeoutMs} ms:\n${output.slice(-3000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  let token;
  try {
    const created = await fetch(`${url}-/user/org.couchdb.user:mcpkit-ci`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'mcpkit-ci', password: 'mcpkit-ci-password', type: 'user', roles: [], date: new Date().toISOString() }),
    });
    const body = await created.json();
    if (!created.ok || typeof body.token !== 'string') throw new Error(`${created.status} ${JSON.stringify(body)}`);
    token = body.token;
  } catch (error) {
    stop();
    throw new Error(`could not register a publishing user on ${url}: ${error.message}\n${output.slice(-3000)}`);
  }

  /** Writes an .npmrc that installs everything from this registry and may publish to it. */
  const npmrc = (file) => {
    const host = url.replace(/^http:/, '');
    writeFileSync(file, `registry=${url}\n${host}:_authToken=${token}\nfund=false\naudit=false\nupdate-notifier=false\n`);
  };
  return { url, dir, pid: child.pid, token, npmrc, log, stop };
}

module.exports = { startRegistry, upstreamRegistry };
