// The practical limit of Node for this surface: framing, JSON.parse, a method switch,
// hand-written checks for `validate`, JSON.stringify. Nothing more, nothing less: on HTTP that
// includes what the transport requires of every POST (path, method, Host and Origin, Accept,
// Content-Type, protocol version, a bounded body) and a Content-Length on every answer.
// Run: node raw-server.js stdio | http   (MCP_HTTP_MODE=stateful|stateless, PORT, HOST, TOOLS)
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { serveControl } from './scale-control';

type Json = Record<string, unknown>;

const TOOLS = Number(process.env.TOOLS ?? 0);
const toolList: Json[] = [
  { name: 'echo', description: 'Returns the text it was given', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
  {
    name: 'add',
    description: 'Adds two numbers',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  },
  { name: 'validate', description: 'Validates a ten-field object', inputSchema: { type: 'object' } },
  { name: 'fail', description: 'Always fails', inputSchema: { type: 'object' } },
  { name: 'slow', description: 'Sleeps', inputSchema: { type: 'object', properties: { ms: { type: 'integer', minimum: 0 } }, required: ['ms'] } },
];
for (let i = 0; i < TOOLS; i++) {
  toolList.push({
    name: `tool_${i}`,
    description: `Synthetic tool number ${i} for tools/list benchmarks`,
    inputSchema: { type: 'object', properties: { x: { type: 'number' }, label: { type: 'string' } }, required: ['x'] },
  });
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ZIP = /^[0-9]{5}$/;
const isInt = (value: unknown, min: number, max: number) => typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
const isText = (value: unknown, min: number, max: number) => typeof value === 'string' && value.length >= min && value.length <= max;

function validateProblems(v: Json): string[] {
  const problems: string[] = [];
  if (!isText(v.name, 1, 64)) problems.push('name');
  if (typeof v.email !== 'string' || !EMAIL.test(v.email)) problems.push('email');
  if (!isInt(v.age, 0, 150)) problems.push('age');
  if (typeof v.score !== 'number' || v.score < 0 || v.score > 100) problems.push('score');
  if (v.role !== 'admin' && v.role !== 'editor' && v.role !== 'viewer') problems.push('role');
  if (typeof v.active !== 'boolean') problems.push('active');
  if (!Array.isArray(v.tags) || v.tags.length > 20 || !v.tags.every((tag) => isText(tag, 1, Infinity))) problems.push('tags');
  const address = v.address as Json | undefined;
  if (
    typeof address !== 'object' ||
    address === null ||
    !isText(address.street, 1, Infinity) ||
    !isText(address.city, 1, Infinity) ||
    typeof address.zip !== 'string' ||
    !ZIP.test(address.zip)
  ) {
    problems.push('address');
  }
  if (v.nickname !== undefined && !isText(v.nickname, 0, 32)) problems.push('nickname');
  if (!isInt(v.priority, 1, 5)) problems.push('priority');
  return problems;
}

const text = (value: string): Json => ({ content: [{ type: 'text', text: value }] });

function call(name: unknown, args: Json): Json | undefined {
  switch (name) {
    case 'echo':
      return typeof args.text === 'string' ? text(args.text) : { ...text('text: required string'), isError: true };
    case 'add':
      return typeof args.a === 'number' && typeof args.b === 'number' ? text(String(args.a + args.b)) : { ...text('a, b: numbers'), isError: true };
    case 'validate': {
      const problems = validateProblems(args);
      if (problems.length > 0) return { ...text(`invalid: ${problems.join(', ')}`), isError: true };
      const address = args.address as Json;
      return text(
        `valid:${args.name as string}:${args.age as number}:${(args.tags as unknown[]).length}:${address.zip as string}:${(args.nickname as string | undefined) ?? '-'}`,
      );
    }
    case 'fail':
      return { ...text('failed'), isError: true };
    default:
      if (typeof name === 'string' && name.startsWith('tool_')) return text(`${name}:${args.x as number}`);
      return undefined;
  }
}

const SERVER_INFO = { name: 'raw-testbed', version: '0.1.0' };
const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

/** A 2026-07-28 claim in `_meta`: the version it names (undefined: the handshake era). */
function modernVersion(params: Json): unknown {
  const meta = params._meta as Json | undefined;
  return meta === undefined ? undefined : meta[VERSION_KEY];
}

/** One message in, one answer out (undefined for notifications). */
function handle(message: Json): Json | undefined {
  const { id, method } = message;
  if (id === undefined) return undefined;
  const params = (message.params ?? {}) as Json;
  const version = modernVersion(params);
  if (version !== undefined) return handleModern(id, method, params, version);
  let result: Json | undefined;
  switch (method) {
    case 'initialize':
      result = { protocolVersion: params.protocolVersion ?? '2025-11-25', capabilities: { tools: {}, resources: {}, prompts: {} }, serverInfo: SERVER_INFO };
      break;
    case 'ping':
      result = {};
      break;
    default:
      return toolMethod(id, method, params);
  }
  return { jsonrpc: '2.0', id, result };
}

/** `tools/list` and `tools/call`, the same on both eras (anything else: -32601). */
function toolMethod(id: unknown, method: unknown, params: Json): Json {
  if (method === 'tools/list') return { jsonrpc: '2.0', id, result: { tools: toolList } };
  if (method !== 'tools/call') return { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } };
  const result = call(params.name, (params.arguments ?? {}) as Json);
  if (!result) return { jsonrpc: '2.0', id, error: { code: -32602, message: `Unknown tool: ${String(params.name)}` } };
  return { jsonrpc: '2.0', id, result };
}

/** The 2026-07-28 work every server must do: the `_meta` checks and the result's extra fields. */
function handleModern(id: unknown, method: unknown, params: Json, version: unknown): Json {
  const meta = params._meta as Json;
  if (typeof meta['io.modelcontextprotocol/clientCapabilities'] !== 'object')
    return { jsonrpc: '2.0', id, error: { code: -32602, message: 'Missing clientCapabilities' } };
  if (version !== '2026-07-28')
    return { jsonrpc: '2.0', id, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: version } } };
  const answer =
    method === 'server/discover'
      ? { jsonrpc: '2.0', id, result: { supportedVersions: ['2026-07-28'], capabilities: { tools: {}, resources: {}, prompts: {} } } }
      : toolMethod(id, method, params);
  const result = answer.result as Json | undefined;
  if (!result) return answer;
  if (method !== 'tools/call') {
    result.ttlMs = 0;
    result.cacheScope = 'public';
  }
  result.resultType = 'complete';
  result._meta = { 'io.modelcontextprotocol/serverInfo': SERVER_INFO };
  return answer;
}

/** A 2026-07-28 POST's headers must match its body; the answer to a mismatch, else undefined. */
function headerMismatch(headers: Record<string, string | string[] | undefined>, message: Json): string | undefined {
  if (headers['mcp-method'] !== message.method) return 'Mcp-Method';
  const params = (message.params ?? {}) as Json;
  if (message.method === 'tools/call' && headers['mcp-name'] !== params.name) return 'Mcp-Name';
  return undefined;
}

function parse(text: string): Json | Json[] {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
  }
}

/** A JSON-RPC error answer with its HTTP status, its length given (no chunked encoding). */
function answerError(response: ServerResponse, status: number, code: number, message: string, id: unknown = null): void {
  const body = JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
}

const MAX_BODY = 4 * 1024 * 1024;
const SERVED_VERSIONS = new Set(['2025-11-25', '2025-06-18', '2025-03-26', '2026-07-28']);
const isJson = (contentType: string | undefined) => contentType !== undefined && /^application\/json\s*(;|$)/i.test(contentType);
const acceptsBoth = (accept: string | undefined) =>
  accept !== undefined && (accept.includes('*/*') || (accept.includes('application/json') && accept.includes('text/event-stream')));

/**
 * What the transport requires of every POST before its body is served, as mcpkit checks it: the
 * path and method, a loopback Host and Origin (DNS rebinding), Accept, Content-Type, a served
 * Mcp-Protocol-Version, a bounded body. An error was answered when it returns false.
 */
function admitted(request: IncomingMessage, response: ServerResponse, hosts: ReadonlySet<string>): boolean {
  if (request.url !== '/mcp') return (answerError(response, 404, -32600, 'Not found'), false);
  if (request.method !== 'POST') return ((response.setHeader('allow', 'POST'), answerError(response, 405, -32600, 'Method not allowed')), false);
  const origin = request.headers.origin;
  if (!hosts.has(request.headers.host ?? '') || (origin !== undefined && !hosts.has(origin.replace(/^https?:\/\//, ''))))
    return (answerError(response, 403, -32600, 'Forbidden host or origin'), false);
  if (!acceptsBoth(request.headers.accept)) return (answerError(response, 406, -32600, 'Not acceptable'), false);
  if (!isJson(request.headers['content-type'])) return (answerError(response, 415, -32600, 'Unsupported media type'), false);
  const version = request.headers['mcp-protocol-version'];
  if (version !== undefined && !SERVED_VERSIONS.has(version as string)) return (answerError(response, 400, -32600, 'Unsupported protocol version'), false);
  if (Number(request.headers['content-length'] ?? 0) > MAX_BODY) return (answerError(response, 413, -32600, 'Body too large'), false);
  return true;
}

if (process.argv[2] === 'http') {
  const stateful = process.env.MCP_HTTP_MODE !== 'stateless';
  const sessions = new Set<string>();
  const port = Number(process.env.PORT ?? 3000);
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  const server = createServer((request, response) => {
    if (!admitted(request, response, hosts)) return;
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > MAX_BODY) request.destroy();
    });
    request.on('end', () => {
      const message = parse(body) as Json;
      const headers: Record<string, string | number> = { 'content-type': 'application/json' };
      const modern = request.headers['mcp-protocol-version'] === '2026-07-28' || modernVersion((message.params ?? {}) as Json) !== undefined;
      if (modern) {
        const mismatch = headerMismatch(request.headers, message);
        if (mismatch) return answerError(response, 400, -32020, `${mismatch} header mismatch`, message.id ?? null);
      } else if (stateful) {
        if (message.method === 'initialize') {
          const sid = randomUUID();
          sessions.add(sid);
          headers['mcp-session-id'] = sid;
        } else if (!sessions.has(request.headers['mcp-session-id'] as string)) {
          return answerError(response, 404, -32600, 'Session not found');
        }
      }
      const answer = 'error' in message ? message : handle(message);
      if (answer === undefined) return void response.writeHead(202, { 'content-length': 0 }).end();
      const text = JSON.stringify(answer);
      headers['content-length'] = Buffer.byteLength(text);
      response.writeHead(200, headers).end(text);
    });
  });
  server.listen(port, process.env.HOST ?? '127.0.0.1', () => {
    const address = server.address() as { port: number };
    process.stderr.write(`raw testbed listening on http://127.0.0.1:${address.port}/mcp\n`);
    // Under pnpm bench:scale (an IPC channel): memory per session. It has no streams to update.
    serveControl(() => undefined);
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
} else {
  let buffer = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (!line.trim()) continue;
      const message = parse(line) as Json;
      const answer = 'error' in message ? message : handle(message);
      if (answer !== undefined) process.stdout.write(`${JSON.stringify(answer)}\n`);
    }
  });
  process.stdin.on('end', () => process.exit(0));
}
