import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpServerProcess, RawStdioClient } from '@mcpkit/testing';

const CLI = join(__dirname, '..', 'dist', 'cli.js');
const TESTBED = join(__dirname, '..', '..', '..', 'apps', 'testbed', 'dist', 'app.js');
const BROKEN = join(__dirname, 'fixtures', 'broken-app.js');
const TWO_APPS = join(__dirname, 'fixtures', 'two-apps.js');
const CONTENT = join(__dirname, 'fixtures', 'content-app.js');

function mcpkit(args: string[], cwd = process.cwd()): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, LOG_LEVEL: 'warn' } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('mcpkit --version', () => {
  it("prints the version in the CLI's package.json", async () => {
    const { version } = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };
    expect(await mcpkit(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('follows package.json, not a string in the code', async () => {
    // A copy of dist beside another package.json; inside packages/cli so its node_modules still resolve.
    const copy = mkdtempSync(join(__dirname, '..', '.version-test-'));
    try {
      cpSync(join(__dirname, '..', 'dist'), join(copy, 'dist'), { recursive: true });
      writeFileSync(join(copy, 'package.json'), JSON.stringify({ name: '@mcpkit/cli', version: '9.8.7-test' }));
      const printed = await new Promise<string>((resolve) =>
        execFile(process.execPath, [join(copy, 'dist', 'cli.js'), '--version'], (_, stdout) => resolve(stdout)),
      );
      expect(printed).toBe('9.8.7-test\n');
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe('mcpkit call', () => {
  it('calls a tool with key=value arguments and prints its text', async () => {
    expect(await mcpkit(['call', 'add', 'a=2', 'b=3.5', TESTBED])).toMatchObject({ code: 0, stdout: '5.5\n' });
    expect(await mcpkit(['call', 'echo', '--args', '{"text":"hi there"}', TESTBED])).toMatchObject({ code: 0, stdout: 'hi there\n' });
  });

  it('exits 1 on an isError result and on an unknown tool', async () => {
    const failed = await mcpkit(['call', 'fail', TESTBED]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('failed with an internal error');
    const invalid = await mcpkit(['call', 'add', 'a=x', TESTBED]);
    expect(invalid).toMatchObject({ code: 1, stdout: expect.stringContaining('b: is required') });
    const unknown = await mcpkit(['call', 'nope', TESTBED]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Unknown tool: nope (JSON-RPC -32602)');
  });

  it('reads resources and gets prompts, and prints JSON on request', async () => {
    expect(await mcpkit(['call', '--resource', 'test://static', TESTBED])).toMatchObject({ code: 0, stdout: 'static resource content\n' });
    expect(await mcpkit(['call', '--prompt', 'greet', 'name=Ada', TESTBED])).toMatchObject({ code: 0, stdout: 'user: Please greet Ada warmly.\n' });
    const json = await mcpkit(['call', 'add', 'a=1', 'b=1', '--json', TESTBED]);
    expect(JSON.parse(json.stdout)).toEqual({ content: [{ type: 'text', text: '2' }] });
  });

  it('prints every kind of content block for what it is: links with name and URI, resources, sizes of binaries', async () => {
    expect(await mcpkit(['call', 'everything', CONTENT])).toMatchObject({
      code: 0,
      stdout: [
        'Found 2 notes:',
        '[resource link] Today (today) <notes://today> text/markdown: What happened today',
        '[resource link] plain <notes://plain>',
        '[resource] <notes://inline> text/plain',
        'inline text',
        '[resource] <notes://logo> [image/png, 3 bytes]',
        '[image, image/png, 4 bytes]',
        '[audio, audio/wav, 2.0 KiB]',
        '',
      ].join('\n'),
    });
    expect(await mcpkit(['call', '--prompt', 'linked', CONTENT])).toMatchObject({ code: 0, stdout: 'user: [resource link] today <notes://today>\n' });
    expect(await mcpkit(['call', '--resource', 'content://logo', CONTENT])).toMatchObject({ code: 0, stdout: '[image/png, 3 bytes]\n' });
  });

  it('prints structured content when there is no content; a block of a kind mcpkit does not know never leaves the server', async () => {
    expect(JSON.parse((await mcpkit(['call', 'structured', CONTENT])).stdout)).toEqual({ city: 'Oslo' });
    // The server refuses the result (issue #13); how the CLI prints such a block from another server: format-content.spec.ts.
    expect(await mcpkit(['call', 'newer', CONTENT])).toMatchObject({
      code: 1,
      stdout: 'Tool newer produced a result that cannot be sent; details are in the server log.\n',
    });
  });

  it('fails with "no answer within" when a handler never settles, exit 1, even one that holds the event loop', async () => {
    // The message says the --timeout ended it; the test's time limit bounds the wait.
    for (const tool of ['stuck', 'hang']) {
      expect(await mcpkit(['call', tool, '--timeout', '300', CONTENT])).toEqual({
        code: 1,
        stdout: '',
        stderr: `error no answer within 300 ms from tool ${tool}\nhint  The handler has not settled, so it was cancelled; --timeout <ms> waits longer (0: for ever).\n`,
      });
    }
  });

  it('waits as long as --timeout says (0: no limit), and refuses one that is not a number of ms', async () => {
    // A handler of 300 ms under a 30 s limit: the limit is a bound, never a race with the handler.
    expect(await mcpkit(['call', 'late', '--timeout', '30000', CONTENT])).toMatchObject({ code: 0, stdout: 'late but there\n' });
    expect(await mcpkit(['call', 'late', '--timeout', '0', CONTENT])).toMatchObject({ code: 0, stdout: 'late but there\n' });
    // No limit, but a promise nothing can settle any more still fails rather than printing nothing.
    expect(await mcpkit(['call', 'stuck', '--timeout', '0', CONTENT])).toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(/^error no answer from tool stuck: nothing it waits for is pending, so it can never answer\n/),
    });
    const bad = await mcpkit(['call', 'late', '--timeout', '1.5s', CONTENT]);
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error --timeout must be a whole number of milliseconds, not 1\.5s\nhint/) });
  });

  it('calls as a 2026-07-28 client with --era modern', async () => {
    const call = await mcpkit(['call', 'add', 'a=1', 'b=1', '--era', 'modern', '--json', TESTBED]);
    expect(JSON.parse(call.stdout)).toEqual({
      content: [{ type: 'text', text: '2' }],
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'mcpkit-testbed', version: '0.1.0' } },
    });
    const read = await mcpkit(['call', '--resource', 'test://static', '--era', 'modern', '--json', TESTBED]);
    expect(JSON.parse(read.stdout)).toMatchObject({ ttlMs: 0, cacheScope: 'private', resultType: 'complete' });
    const bad = await mcpkit(['call', 'add', '--era', 'future', TESTBED]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/future/);
  });

  it("still takes --era handshake, the legacy era's old name, with a deprecation note on stderr only", async () => {
    const old = await mcpkit(['call', 'add', 'a=1', 'b=1', '--era', 'handshake', '--json', TESTBED]);
    const current = await mcpkit(['call', 'add', 'a=1', 'b=1', '--era', 'legacy', '--json', TESTBED]);
    expect(old).toMatchObject({ code: 0, stdout: current.stdout });
    expect(JSON.parse(old.stdout)).toEqual({ content: [{ type: 'text', text: '2' }] });
    expect(old.stderr).toBe('mcpkit: --era handshake is deprecated: use --era legacy (removed in the next release)\n');
    expect(current.stderr).toBe('');
    const help = await mcpkit(['call', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toMatch(/choices: "legacy", "modern", default: "legacy"/);
    expect(help.stdout).not.toMatch(/handshake/);
  });

  it('explains usage mistakes in one line plus a hint, exit 2', async () => {
    const bad = await mcpkit(['call', 'add', '--args', '{nope', TESTBED]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/error --args is not valid JSON\nhint/);
    expect((await mcpkit(['call', 'add', 'a=1', '/no/such/app.js'])).code).toBe(2);
    expect((await mcpkit(['frobnicate'])).code).toBe(2);
    expect((await mcpkit(['--help'])).code).toBe(0);
  });
});

describe('usage errors', () => {
  // Commander's and ours alike: `error <problem>` then `hint  <what to do>`, nothing else, exit 2.
  const ONE_FORMAT = /^error (?!.*error:)[^\n]+\nhint {2}[^\n]+\n$/;

  it.each([
    [['inspect', '--jsn', TESTBED], "error unknown option '--jsn'\nhint  Did you mean --json? mcpkit inspect --help lists its options and arguments.\n"],
    [['inspec'], "error unknown command 'inspec'\nhint  Did you mean inspect? mcpkit --help lists the commands.\n"],
    [
      ['call', 'add', '--era', 'future', TESTBED],
      "error option '--era <era>' argument 'future' is invalid. Allowed choices are legacy, modern.\nhint  mcpkit call --help lists its options and arguments.\n",
    ],
    [['config'], "error required option '--client <client>' not specified\nhint  mcpkit config --help lists its options and arguments.\n"],
    [['new'], "error missing required argument 'name'\nhint  mcpkit new --help lists its options and arguments.\n"],
    [['start', '--port'], "error option '--port <port>' argument missing\nhint  mcpkit start --help lists its options and arguments.\n"],
    [
      ['inspect', 'a.js', 'b.js'],
      "error too many arguments for 'inspect'. Expected 1 argument but got 2.\nhint  mcpkit inspect --help lists its options and arguments.\n",
    ],
    [['--frob'], "error unknown option '--frob'\nhint  mcpkit --help lists the commands.\n"],
  ])("commander's: mcpkit %j", async (args, stderr) => {
    expect(await mcpkit(args)).toEqual({ code: 2, stdout: '', stderr });
  });

  it.each([
    [['call', 'add', '--args', '{nope', TESTBED]],
    [['config', '--client', 'emacs', TESTBED]],
    [['start', TESTBED, '--port', 'abc', '--http']],
    [['new', 'demo', '--transport', 'tcp', '--no-install', '--yes', '--dir', '/nonexistent/x']],
    [['inspect', '/no/such/app.js']],
    [['start', TESTBED, '--stdio', '--http']],
    [['new', 'demo', '--pm', 'yarn', '--no-install', '--yes', '--dir', '/nonexistent/x']],
  ])('ours, in the same format: mcpkit %j', async (args) => {
    const result = await mcpkit(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(ONE_FORMAT);
  });
});

describe('mcpkit inspect', () => {
  it('prints the capability map, as text and as JSON', async () => {
    const text = await mcpkit(['inspect', TESTBED]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('tools (7)');
    const json = JSON.parse((await mcpkit(['inspect', TESTBED, '--json'])).stdout) as { tools: Array<{ name: string }>; server: { name: string } };
    expect(json.server.name).toBe('mcpkit-testbed');
    expect(json.tools.map((tool) => tool.name)).toEqual(['echo', 'add', 'validate', 'fail', 'slow', 'shapes', 'limited']);
  });

  it('prints a definition error with its code and hints, exit 1', async () => {
    const broken = await mcpkit(['inspect', BROKEN]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('MCPKIT_ERR_INVALID_TOOL_NAME');
    expect(broken.stderr).toContain('hint  Use 1 to 128 characters');
  });

  it('finds the entry through package.json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpkit-cli-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', mcpkit: { app: TESTBED } }));
    expect((await mcpkit(['inspect', '--json'], dir)).code).toBe(0);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x' }));
    const missing = await mcpkit(['inspect'], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('dist/app.js');
  });
});

describe('choosing the app of a module', () => {
  it('refuses a module with several apps, naming them and suggesting --export, exit 2', async () => {
    const result = await mcpkit(['inspect', TWO_APPS]);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `error ${TWO_APPS} exports 2 mcpkit apps: weatherApp and clockApp\nhint  Choose one with --export <name>, e.g. --export weatherApp.\n`,
    });
    expect((await mcpkit(['call', 'now', TWO_APPS])).code).toBe(2);
  });

  it('takes the one named by --export, in inspect, call and start', async () => {
    const inspected = JSON.parse((await mcpkit(['inspect', TWO_APPS, '--export', 'clockApp', '--json'])).stdout) as { server: { name: string } };
    expect(inspected.server.name).toBe('clock');
    expect(await mcpkit(['call', 'forecast', '--export', 'weatherApp', TWO_APPS])).toMatchObject({ code: 0, stdout: 'sunny\n' });
    const server = RawStdioClient.spawn(process.execPath, [CLI, 'start', TWO_APPS, '--export', 'clockApp'], { ...process.env, LOG_LEVEL: 'warn' });
    try {
      expect(await server.initialize()).toMatchObject({ result: { serverInfo: { name: 'clock' } } });
      expect(await server.end()).toEqual({ code: 0, signal: null });
    } finally {
      server.kill();
    }
  });

  it('refuses an --export the module does not have, listing what it exports, exit 2', async () => {
    const result = await mcpkit(['inspect', TWO_APPS, '--export', 'nope']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error ${TWO_APPS} has no export named nope\nhint  It exports weatherApp and clockApp.\n`);
  });
});

describe('mcpkit start', () => {
  it('serves over stdio', async () => {
    const server = RawStdioClient.spawn(process.execPath, [CLI, 'start', TESTBED, '--stdio'], { ...process.env, LOG_LEVEL: 'warn' });
    try {
      await server.initialize();
      expect(await server.request('tools/call', { name: 'add', arguments: { a: 1, b: 2 } })).toMatchObject({ result: { content: [{ text: '3' }] } });
      expect(await server.end()).toEqual({ code: 0, signal: null });
      expect(server.stray).toEqual([]);
    } finally {
      server.kill();
    }
  });

  it('serves over HTTP, stateful and stateless', async () => {
    for (const flags of [[], ['--stateless']]) {
      const server = await HttpServerProcess.start(process.execPath, [CLI, 'start', TESTBED, '--http', '--port', '0', ...flags], { LOG_LEVEL: 'warn' });
      try {
        const response = await fetch(server.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } }),
        });
        expect(response.status).toBe(200);
        expect(response.headers.get('mcp-session-id') === null).toBe(flags.includes('--stateless'));
      } finally {
        expect(await server.stop()).toEqual({ code: 0, signal: null });
      }
    }
  });
});

describe('mcpkit config', () => {
  it.each([
    [
      'claude-desktop',
      (out: string) => expect(JSON.parse(out).mcpServers.testbed).toEqual({ command: process.execPath, args: [CLI, 'start', TESTBED, '--stdio'] }),
    ],
    ['claude-code', (out: string) => expect(out).toBe(`claude mcp add testbed -- ${process.execPath} ${CLI} start ${TESTBED} --stdio\n`)],
    ['cursor', (out: string) => expect(JSON.parse(out).mcpServers.testbed.command).toBe(process.execPath)],
    ['vscode', (out: string) => expect(JSON.parse(out).servers.testbed).toMatchObject({ type: 'stdio', command: process.execPath })],
  ])('prints the stdio config for %s', async (client, check) => {
    const result = await mcpkit(['config', '--client', client, '--name', 'testbed', TESTBED]);
    expect(result.code).toBe(0);
    check(result.stdout);
  });

  it.each([
    [
      'claude-desktop',
      (out: string) => expect(JSON.parse(out).mcpServers.remote).toEqual({ command: 'npx', args: ['-y', 'mcp-remote', 'http://127.0.0.1:3000/mcp'] }),
    ],
    ['claude-code', (out: string) => expect(out).toBe('claude mcp add --transport http remote http://127.0.0.1:3000/mcp\n')],
    ['cursor', (out: string) => expect(JSON.parse(out)).toEqual({ mcpServers: { remote: { url: 'http://127.0.0.1:3000/mcp' } } })],
    ['vscode', (out: string) => expect(JSON.parse(out)).toEqual({ servers: { remote: { type: 'http', url: 'http://127.0.0.1:3000/mcp' } } })],
  ])('prints the HTTP config for %s', async (client, check) => {
    const result = await mcpkit(['config', '--client', client, '--http', 'http://127.0.0.1:3000/mcp', '--name', 'remote']);
    expect(result.code).toBe(0);
    check(result.stdout);
    if (client === 'claude-desktop') expect(result.stderr).toContain('Settings > Connectors');
  });

  it("names the server after the app, over stdio and HTTP (not the package, nor a fixed 'mcp-server')", async () => {
    const stdio = await mcpkit(['config', '--client', 'cursor', TESTBED]);
    expect(Object.keys(JSON.parse(stdio.stdout).mcpServers)).toEqual(['mcpkit-testbed']);
    const http = await mcpkit(['config', '--client', 'claude-code', '--http', 'http://127.0.0.1:3000/mcp', TESTBED]);
    expect(http).toMatchObject({ code: 0, stdout: 'claude mcp add --transport http mcpkit-testbed http://127.0.0.1:3000/mcp\n' });
  });

  it('finds the app for its name through package.json, and says how to do without one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpkit-cli-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: '@acme/x', mcpkit: { app: TESTBED } }));
    expect((await mcpkit(['config', '--client', 'vscode', '--http', 'http://127.0.0.1:3000/mcp'], dir)).stdout).toContain('"mcpkit-testbed"');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x' }));
    const missing = await mcpkit(['config', '--client', 'vscode', '--http', 'http://127.0.0.1:3000/mcp'], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /^error No app module at .*dist\/app\.js\nhint {2}The server is named after the app: .*, or name the server yourself: --name <name>\.\n$/,
    );
    expect((await mcpkit(['config', '--client', 'vscode', '--http', 'http://127.0.0.1:3000/mcp', '--name', 'remote'], dir)).code).toBe(0);
  });

  it('takes --export: the name of that app, and the same choice for mcpkit start', async () => {
    const result = await mcpkit(['config', '--client', 'claude-desktop', '--export', 'clockApp', TWO_APPS]);
    expect(JSON.parse(result.stdout).mcpServers).toEqual({
      clock: { command: process.execPath, args: [CLI, 'start', TWO_APPS, '--stdio', '--export', 'clockApp'] },
    });
    const ambiguous = await mcpkit(['config', '--client', 'claude-desktop', TWO_APPS]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('--export weatherApp');
  });

  it('rejects an unknown client', async () => {
    const result = await mcpkit(['config', '--client', 'emacs', TESTBED]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--client must be one of');
  });
});

describe('mcpkit new, the files of each transport', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'mcpkit-new-files-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** The project's package.json and every file it wrote, as text (no install, no packing). */
  async function scaffolded(transport: string) {
    const dir = join(root, transport);
    const result = await mcpkit(['new', 'demo', '--dir', dir, '--transport', transport, '--registry', '^0.1.0', '--no-install', '--yes'], root);
    expect(result.code).toBe(0);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      type: string;
      dependencies: Record<string, string>;
      scripts: Record<string, string>;
    };
    const text = (readdirSync(dir, { recursive: true }) as string[])
      .filter((file) => file.includes('.'))
      .map((file) => readFileSync(join(dir, file), 'utf8'))
      .join('\n');
    return { pkg, text, readme: readFileSync(join(dir, 'README.md'), 'utf8'), printed: result.stdout };
  }

  it('stdio: no Fastify and no HTTP anywhere (package.json, README, code)', async () => {
    const { pkg, text, readme, printed } = await scaffolded('stdio');
    expect(Object.keys(pkg.dependencies)).toEqual(['@mcpkit/cli', '@mcpkit/core', '@mcpkit/stdio', 'class-transformer', 'class-validator', 'reflect-metadata']);
    expect(pkg.scripts).toMatchObject({ start: 'mcpkit start', dev: 'mcpkit dev' });
    expect(text).not.toMatch(/fastify|--http|\bHTTP\b|:3000\/mcp/i);
    expect(readme).toContain('npm start            # serve on stdin/stdout');
    expect(readme).toContain('claude mcp add demo -- ');
    expect(printed).toMatch(/ {2}npm start\n$/);
  });

  it('http: no @mcpkit/stdio, and start serves HTTP', async () => {
    const { pkg, text, readme, printed } = await scaffolded('http');
    expect(Object.keys(pkg.dependencies)).toEqual([
      '@mcpkit/cli',
      '@mcpkit/core',
      '@mcpkit/fastify',
      'class-transformer',
      'class-validator',
      'fastify',
      'reflect-metadata',
    ]);
    expect(pkg.scripts).toMatchObject({ start: 'mcpkit start --http', dev: 'mcpkit dev --http' });
    expect(text).not.toMatch(/@mcpkit\/stdio|--stdio|stdin/);
    expect(readme).toContain('claude mcp add --transport http demo http://127.0.0.1:3000/mcp');
    expect(printed).toMatch(/ {2}npm start\n$/);
  });

  it('both: both transports, stdio by default', async () => {
    const { pkg, readme } = await scaffolded('both');
    // Deno, unlike Node, runs the built .js as CommonJS only when the package says so.
    expect(pkg.type).toBe('commonjs');
    expect(Object.keys(pkg.dependencies)).toEqual(expect.arrayContaining(['@mcpkit/stdio', '@mcpkit/fastify', 'fastify']));
    expect(pkg.scripts.start).toBe('mcpkit start');
    expect(readme).toContain('npm start -- --stdio');
    expect(readme).toContain('npm start -- --http');
  });

  it('refuses an unknown transport, writing nothing, exit 2', async () => {
    const result = await mcpkit(['new', 'demo', '--dir', join(root, 'x'), '--transport', 'tcp', '--registry', '^0.1.0', '--no-install', '--yes'], root);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error --transport must be stdio, http or both, not tcp\nhint  For example: mcpkit new weather --transport stdio\n');
    expect(existsSync(join(root, 'x'))).toBe(false);
  });

  /** `mcpkit new` with npm pointed at a loopback port where nothing listens: the install fails at once. */
  async function newOffline(dir: string) {
    const closed = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    return new Promise<{ code: number; stderr: string }>((resolve) => {
      const env = {
        ...process.env,
        LOG_LEVEL: 'warn',
        npm_config_registry: `http://127.0.0.1:${closed}/`,
        npm_config_fetch_retries: '0',
        npm_config_cache: join(root, 'npm-cache'),
      };
      execFile(process.execPath, [CLI, 'new', 'demo', '--dir', dir, '--registry', '0.1.0', '--yes'], { cwd: root, env }, (error, _stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stderr }),
      );
    });
  }

  it('without a reachable registry: exit 1, says why and what to do, and leaves no folder behind', async () => {
    const dir = join(root, 'offline');
    const result = await newOffline(dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/\nerror npm install failed \(exit \d+\): .*reason: connect ECONNREFUSED .+ \(.+offline was removed\)\n/);
    expect(result.stderr).toContain('hint  Check that the registry npm uses (npm config get registry) is reachable');
    expect(existsSync(dir)).toBe(false);
  }, 60_000);

  it('without a reachable registry, in an empty folder it was given: empties it again and keeps it', async () => {
    const dir = join(root, 'given');
    mkdirSync(dir);
    const result = await newOffline(dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('given was emptied again');
    expect(readdirSync(dir)).toEqual([]);
  }, 60_000);
});

describe('mcpkit build-validators', () => {
  it("writes the testbed's validators and their .d.ts; the module loads with core alone", async () => {
    // Inside packages/cli, so that the module's require('@mcpkit/core/transport') resolves as in a project.
    const dir = mkdtempSync(join(__dirname, '..', '.validators-test-'));
    try {
      const out = join(dir, 'validators.generated.js');
      const result = await mcpkit(['build-validators', TESTBED, '--out', out]);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(/: \d+ validators\n$/);
      expect(readFileSync(join(dir, 'validators.generated.d.ts'), 'utf8')).toContain('PrecompiledValidators');
      const source = readFileSync(out, 'utf8');
      expect(source).toContain(`mcpkit build-validators ${TESTBED} --out ${out}`);
      expect(source).not.toMatch(/require\("ajv/);
      const loaded = await new Promise<string>((resolve) =>
        execFile(
          process.execPath,
          ['-e', `const v = require(${JSON.stringify(out)}); process.stdout.write(typeof v.schemasHash + ' ' + Object.keys(v).length)`],
          (_, stdout) => resolve(stdout),
        ),
      );
      expect(loaded).toMatch(/^string \d+$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an --out that is not a .js module, writing nothing, exit 2', async () => {
    const result = await mcpkit(['build-validators', TESTBED, '--out', 'validators.ts']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--out must name a \.js or \.cjs file[\s\S]*hint/);
    expect(existsSync('validators.ts')).toBe(false);
  });
});
