// Starts a built server on an ephemeral port for the external test tools and waits for its URL.
'use strict';

const { spawn } = require('node:child_process');

const URL_PATTERN = /(https?:\/\/[^\s"'`]+\/mcp)\b/;

/** Runs `node <entry> ...args` with PORT=0; resolves `{ child, url }` once it prints its MCP URL. */
function startHttpServer(entry, args = [], env = {}) {
  const child = spawn(process.execPath, [entry, ...args], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${entry} did not start: ${output}`)), 20_000);
    const onData = (chunk) => {
      output += chunk.toString();
      const found = URL_PATTERN.exec(output);
      if (!found) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stderr.off('data', onData);
      // Keep draining so a chatty server never blocks on a full pipe.
      child.stdout.resume();
      child.stderr.resume();
      resolve({ child, url: found[1] });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${entry} exited with ${code}: ${output}`)));
  });
}

module.exports = { startHttpServer };
