'use strict';
// The runtime matrix's scripted client (issue #31 §2): the same checks against every cell, over
// Streamable HTTP (`checkHttp(url)`) or stdio (`checkStdio(command, args)`). Plain `fetch` and
// `node:child_process`, no dependencies, so it runs before anything is built.
//
// The server under test serves the fixture's two tools (scripts/runtimes/fixture):
//   greet { name: string, at least one character } -> "Hello, <name>!"
//   count { steps: integer }                        -> reports `steps` progress notifications, then "counted <steps>"
// Each check prints one line (`  ok   <cell> <check>` or `  FAIL <cell> <check>: why`); the
// functions resolve to `{ passed, failed }` and never throw.

const { spawn } = require('node:child_process');

const LEGACY = '2025-11-25';
const MODERN = '2026-07-28';
const TIMEOUT_MS = 15_000;

/** The request `_meta` every 2026-07-28 request carries (docs/protocol.md §3.2), naming the client `client`. */
function modernMeta(extra, client = 'mcpkit-runtime-check') {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: client, version: '1' },
    ...extra,
  };
}

/** The JSON-RPC messages of an answer: one JSON body, or every `data:` event of an SSE stream. */
function readMessages(contentType, text) {
  if (!contentType.startsWith('text/event-stream')) return text.trim() === '' ? [] : [JSON.parse(text)];
  const messages = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data !== '') messages.push(JSON.parse(data));
  }
  return messages;
}

/** The checks, written once against a `send(message, headers) -> { status, sse, messages }`. */
function checks(tools, era) {
  const answerTo = (id, answer) => answer.messages.find((message) => message.id === id);
  const textOf = (response) => (response?.result?.content ?? []).map((part) => part.text ?? '').join('');
  const describe = (response) => JSON.stringify(response ?? null).slice(0, 200);
  return [
    {
      name: 'tools/list',
      async run(send) {
        const answer = await send({ jsonrpc: '2.0', id: 10, method: 'tools/list', params: {} });
        const result = answerTo(10, answer)?.result;
        const names = (result?.tools ?? []).map((tool) => tool.name);
        if (!tools.every((tool) => names.includes(tool))) return `listed ${JSON.stringify(names)}, expected ${tools.join(', ')}`;
        // Only a 2026-07-28 answer has a resultType: a request served as legacy does not pass as modern.
        if ((result.resultType === 'complete') !== (era === MODERN)) return `resultType ${JSON.stringify(result.resultType)} on a ${era} answer`;
        return null;
      },
    },
    {
      name: 'tools/call valid input',
      async run(send) {
        const answer = await send({ jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'greet', arguments: { name: 'Ada' } } });
        const response = answerTo(11, answer);
        if (response?.result?.isError === true || textOf(response) !== 'Hello, Ada!') return `answered ${describe(response)}`;
        return null;
      },
    },
    {
      name: 'tools/call invalid input',
      async run(send) {
        // SEP-1303 (2025-11-25 and 2026-07-28): a result with isError naming the field, not a protocol error.
        const answer = await send({ jsonrpc: '2.0', id: 12, method: 'tools/call', params: { name: 'greet', arguments: { name: 42 } } });
        const response = answerTo(12, answer);
        if (response?.result?.isError !== true || !textOf(response).includes('name')) return `answered ${describe(response)}`;
        return null;
      },
    },
    {
      name: 'progress then the answer (an SSE stream on HTTP)',
      async run(send) {
        const message = { jsonrpc: '2.0', id: 13, method: 'tools/call', params: { name: 'count', arguments: { steps: 3 }, _meta: { progressToken: 'p13' } } };
        const answer = await send(message);
        const progress = answer.messages.filter((m) => m.method === 'notifications/progress' && m.params?.progressToken === 'p13');
        const response = answerTo(13, answer);
        if (answer.sse === false) return `answered with ${answer.contentType || 'no content type'}, not an SSE stream`;
        if (progress.length !== 3 || textOf(response) !== 'counted 3') return `${progress.length} progress notifications, then ${describe(response)}`;
        return null;
      },
    },
  ];
}

/** Prints and counts what `run` reports; a check that throws (no answer, bad JSON) is a failure too. */
async function tally(cell, list, send, log) {
  let passed = 0;
  let failed = 0;
  for (const check of list) {
    let why;
    try {
      why = await check.run(send);
    } catch (error) {
      why = error instanceof Error ? error.message : String(error);
    }
    if (why === null) {
      passed += 1;
      log(`  ok   ${cell} ${check.name}`);
    } else {
      failed += 1;
      log(`  FAIL ${cell} ${check.name}: ${why}`);
    }
  }
  return { passed, failed };
}

async function post(url, message, headers) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(message),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const contentType = response.headers.get('content-type') ?? '';
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    contentType,
    sse: contentType.startsWith('text/event-stream'),
    messages: readMessages(contentType, text),
  };
}

/** The legacy era over HTTP: initialize, the session's id and version on every later request. */
async function legacyHttp(url) {
  const init = await post(url, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'mcpkit-runtime-check', version: '1' } },
  });
  const result = init.messages.find((m) => m.id === 1)?.result;
  if (init.status !== 200 || result?.protocolVersion !== LEGACY)
    throw new Error(`initialize: HTTP ${init.status} ${JSON.stringify(init.messages).slice(0, 200)}`);
  const session = init.headers.get('mcp-session-id');
  const headers = { 'mcp-protocol-version': LEGACY, ...(session === null ? {} : { 'mcp-session-id': session }) };
  const initialized = await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  if (initialized.status !== 202) throw new Error(`notifications/initialized: HTTP ${initialized.status}`);
  return (message) => post(url, message, headers);
}

/**
 * The 2026-07-28 era over HTTP: no handshake; `_meta` on every request and the headers it mirrors.
 * Resolves with the answer's status, headers and JSON-RPC messages.
 */
function modernHttp(url, client) {
  return (message) => {
    const params = { ...message.params, _meta: modernMeta(message.params?._meta, client) };
    const name = params.name ?? params.uri;
    const headers = { 'mcp-protocol-version': MODERN, 'mcp-method': message.method, ...(name === undefined ? {} : { 'mcp-name': name }) };
    return post(url, { ...message, params }, headers);
  };
}

/** Every check on both eras against an MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
async function checkHttp(url, { cell = url, tools = ['greet', 'count'], log = console.log } = {}) {
  const list = checks(tools, LEGACY);
  let legacy;
  try {
    legacy = await legacyHttp(url);
  } catch (error) {
    log(`  FAIL ${cell} ${LEGACY} handshake: ${error.message}`);
    legacy = null;
  }
  const first = legacy === null ? { passed: 0, failed: list.length } : await tally(`${cell} ${LEGACY}`, list, legacy, log);
  const second = await tally(`${cell} ${MODERN}`, checks(tools, MODERN), modernHttp(url), log);
  return { passed: first.passed + second.passed, failed: first.failed + second.failed };
}

/** A child speaking newline-delimited JSON-RPC: `send` writes one request and gathers what comes back until its answer. */
function stdioChild(command, args, options) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], ...options });
  let buffered = '';
  let stderr = '';
  const waiting = new Set();
  const seen = [];
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    let end;
    while ((end = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, end).trim();
      buffered = buffered.slice(end + 1);
      if (line === '') continue;
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        continue;
      }
      seen.push(message);
      for (const waiter of waiting) waiter();
    }
  });
  const exited = new Promise((resolve) => child.once('close', resolve));
  child.once('error', (error) => {
    stderr += String(error);
  });
  const send = (message) =>
    new Promise((resolve, reject) => {
      const start = seen.length;
      const timer = setTimeout(() => {
        waiting.delete(check);
        reject(new Error(`no answer to ${message.method} in ${TIMEOUT_MS} ms${stderr === '' ? '' : `; stderr: ${stderr.trim().slice(-400)}`}`));
      }, TIMEOUT_MS);
      function check() {
        const messages = seen.slice(start);
        if (message.id === undefined || messages.some((m) => m.id === message.id && m.method === undefined)) {
          clearTimeout(timer);
          waiting.delete(check);
          resolve({ status: 200, sse: null, contentType: '', messages });
        }
      }
      waiting.add(check);
      exited.then(() => {
        if (!waiting.has(check)) return;
        clearTimeout(timer);
        waiting.delete(check);
        reject(new Error(`the server exited before answering ${message.method}; stderr: ${stderr.trim().slice(-400)}`));
      });
      child.stdin.write(`${JSON.stringify(message)}\n`);
      if (message.id === undefined) check();
    });
  const close = async () => {
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  return { send, close, stderr: () => stderr };
}

/**
 * Every check on both eras against a server on stdio, started as an MCP client starts it. The
 * SSE check stands for stdio's own form of it: the progress notifications before the answer.
 */
async function checkStdio(command, args, { cell = `${command} ${args.join(' ')}`, tools = ['greet', 'count'], cwd, env, log = console.log } = {}) {
  const list = checks(tools, LEGACY);
  const child = stdioChild(command, args, { cwd, env: env ?? process.env });
  let totals = { passed: 0, failed: 0 };
  try {
    const init = await child.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'mcpkit-runtime-check', version: '1' } },
    });
    const version = init.messages.find((m) => m.id === 1)?.result?.protocolVersion;
    if (version !== LEGACY) throw new Error(`initialize answered ${JSON.stringify(init.messages).slice(0, 200)}`);
    await child.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    totals = await tally(`${cell} ${LEGACY}`, list, child.send, log);
  } catch (error) {
    log(`  FAIL ${cell} ${LEGACY} handshake: ${error.message}`);
    totals = { passed: 0, failed: list.length };
  }
  // A 2026-07-28 request on the same stdio stream: stdio is one connection, the era is per request.
  const modern = await tally(
    `${cell} ${MODERN}`,
    checks(tools, MODERN),
    (message) => child.send({ ...message, params: { ...message.params, _meta: modernMeta(message.params?._meta) } }),
    log,
  );
  await child.close();
  return { passed: totals.passed + modern.passed, failed: totals.failed + modern.failed };
}

module.exports = { checkHttp, checkStdio, modernHttp, readMessages };

if (require.main === module) {
  // `node scripts/runtimes/check-http.js http://127.0.0.1:3000/mcp`, or `-- node dist/main.js stdio`.
  const [first, ...rest] = process.argv.slice(2);
  const run = first === '--' ? checkStdio(rest[0], rest.slice(1)) : checkHttp(first);
  run.then(({ passed, failed }) => {
    console.log(`${passed} passed, ${failed} failed`);
    process.exitCode = failed === 0 && passed > 0 ? 0 : 1;
  });
}
