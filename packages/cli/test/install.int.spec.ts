import { execFile, execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { RawStdioClient } from '@mcpkit/testing';
import { parse } from 'jsonc-parser';
import { CliError } from '../src/cli-error';
import { installServer, uninstallServer } from '../src/commands/install';
import { CLIENT_FILES, CLIENTS, type ClientName, type ClientPlace } from '../src/install/client-files';

const CLI = join(__dirname, '..', 'dist', 'cli.js');
const INPUT_APP = join(__dirname, 'fixtures', 'input-app.js');

function mcpkit(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, LOG_LEVEL: 'warn', ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** Each client's file as people and other tools leave it: other servers, other settings, its own layout. */
const EXISTING: Record<ClientName, string> = {
  'claude-desktop':
    '{\n  "mcpServers": {\n    "filesystem": {\n      "command": "npx",\n      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/ann/Desktop"]\n    }\n  },\n  "globalShortcut": "Alt+Space"\n}\n',
  // ~/.claude.json holds much else, and project-local servers under "projects" that are not ours to touch.
  'claude-code':
    '{\n  "numStartups": 12,\n  "projects": {\n    "/home/ann/site": {\n      "mcpServers": {\n        "db": { "type": "stdio", "command": "db-mcp" }\n      }\n    }\n  },\n  "mcpServers": {\n    "github": {\n      "type": "http",\n      "url": "https://api.githubcopilot.com/mcp/"\n    }\n  }\n}',
  cursor: '{\n    "mcpServers": {\n        "context7": { "url": "https://mcp.context7.com/mcp", "headers": { "CONTEXT7_API_KEY": "${env:KEY}" } }\n    }\n}\n',
  vscode:
    '// Workspace servers\r\n{\r\n\t"inputs": [\r\n\t\t{ "type": "promptString", "id": "token", "password": true }\r\n\t],\r\n\t"servers": {\r\n\t\t// the issue tracker\r\n\t\t"tracker": { "type": "http", "url": "https://tracker.example.com/mcp" }, /* pinned */\r\n\t},\r\n}\r\n',
  windsurf: '{"mcpServers":{"zapier":{"serverUrl":"https://actions.zapier.com/mcp/KEY/sse"}}}',
};

const SERVER = {
  name: 'notes',
  command: process.execPath,
  args: ['/opt/mcpkit/cli.js', 'start', '/srv/notes/dist/app.js', '--stdio', '--', '/srv/notes data'],
  env: { NOTES_DB: '/var/lib/notes.db' },
};

describe('installServer and uninstallServer on each client’s file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-install-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(CLIENTS.map((client) => [client]))('%s: adds, is idempotent, keeps a backup, and removes exactly its entry', (client) => {
    const { key, comments } = CLIENT_FILES[client];
    const path = join(dir, client, 'config.json');
    mkdirSync(join(dir, client));
    writeFileSync(path, EXISTING[client]);

    expect(installServer(client, path, SERVER)).toEqual({ outcome: 'added', backup: `${path}.bak` });
    const written = readFileSync(path, 'utf8');
    const read = parse(written, [], { allowTrailingComma: comments, disallowComments: !comments }) as Record<string, Record<string, unknown>>;
    expect(read[key].notes).toMatchObject({ command: process.execPath, args: SERVER.args, env: SERVER.env });
    if (client === 'vscode' || client === 'claude-code') expect(read[key].notes).toMatchObject({ type: 'stdio' });
    // The client's other settings are all there, as they were (the first server stays first).
    const original = parse(EXISTING[client], [], { allowTrailingComma: true }) as Record<string, Record<string, unknown>>;
    expect({ ...read, [key]: { ...read[key], notes: undefined } }).toEqual({ ...original, [key]: { ...original[key], notes: undefined } });
    expect(readFileSync(`${path}.bak`, 'utf8')).toBe(EXISTING[client]);

    // The same again: nothing written, the backup still the file as it first was.
    expect(installServer(client, path, SERVER)).toEqual({ outcome: 'unchanged' });
    expect(readFileSync(path, 'utf8')).toBe(written);
    expect(readFileSync(`${path}.bak`, 'utf8')).toBe(EXISTING[client]);

    // Another launch under the same name replaces it in place.
    expect(installServer(client, path, { ...SERVER, args: [...SERVER.args, '--read-only'] }).outcome).toBe('replaced');

    uninstallServer(client, path, 'notes');
    expect(readFileSync(path, 'utf8')).toBe(EXISTING[client]);
    expect(() => uninstallServer(client, path, 'notes')).toThrow(CliError);
    expect(() => uninstallServer(client, path, 'notes')).toThrow(/No server named notes in .*config\.json/);
  });

  it('never replaces a server of that name that mcpkit did not install, unless forced', () => {
    const path = join(dir, 'mcp.json');
    const theirs = '{\n  "mcpServers": {\n    "notes": { "command": "uvx", "args": ["their-notes-server"], "autoApprove": ["read"] }\n  }\n}\n';
    writeFileSync(path, theirs);
    expect(() => installServer('cursor', path, SERVER)).toThrow(new CliError(`${path} already has a server named notes that mcpkit did not install`));
    expect(readFileSync(path, 'utf8')).toBe(theirs);
    expect(existsSync(`${path}.bak`)).toBe(false);
    expect(installServer('cursor', path, SERVER, true).outcome).toBe('replaced');
    expect(readFileSync(`${path}.bak`, 'utf8')).toBe(theirs);
    // Its own entry, launched otherwise, it replaces without being forced.
    expect(installServer('cursor', path, { ...SERVER, env: {} }).outcome).toBe('replaced');
  });

  it('makes a missing file and its folder', () => {
    const path = join(dir, 'new', 'Claude', 'claude_desktop_config.json');
    expect(installServer('claude-desktop', path, SERVER)).toEqual({ outcome: 'added' });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ mcpServers: { notes: { command: SERVER.command, args: SERVER.args, env: SERVER.env } } });
    expect(existsSync(`${path}.bak`)).toBe(false);
  });

  it.each([
    ['cursor', '{ "mcpServers": { "a": { "command": "x" } '],
    ['claude-desktop', '{\n  // a comment Claude Desktop would not read\n  "mcpServers": {}\n}\n'],
    ['windsurf', '{ "mcpServers": [] }'],
  ] as const)('refuses a %s file it cannot read, and leaves it as it was', (client, text) => {
    const path = join(dir, `broken-${client}.json`);
    writeFileSync(path, text);
    expect(() => installServer(client, path, SERVER)).toThrow(/is not a configuration this command can edit: .+/);
    expect(() => uninstallServer(client, path, 'notes')).toThrow(CliError);
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(existsSync(`${path}.bak`)).toBe(false);
  });
});

describe('installServer and uninstallServer on files that are not plain files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-install-fs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes through a symlink to a file not made yet (the link stays a link)', () => {
    const link = join(dir, 'dangling.json');
    symlinkSync(join('dotfiles', 'cursor', 'mcp.json'), link);
    expect(installServer('cursor', link, SERVER)).toEqual({ outcome: 'added' });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(Object.keys(JSON.parse(readFileSync(join(dir, 'dotfiles', 'cursor', 'mcp.json'), 'utf8')).mcpServers)).toEqual(['notes']);
  });

  it('refuses a read-only file, a folder and a path through a file with one line and a hint, and changes nothing', () => {
    const readOnly = join(dir, 'read-only.json');
    writeFileSync(readOnly, '{}');
    chmodSync(readOnly, 0o444);
    expect(() => installServer('cursor', readOnly, SERVER)).toThrow(new CliError(`${readOnly} is read-only`));
    expect(readFileSync(readOnly, 'utf8')).toBe('{}');
    mkdirSync(join(dir, 'folder.json'));
    expect(() => installServer('cursor', join(dir, 'folder.json'), SERVER)).toThrow(/^Cannot edit .*folder\.json: it is a folder \(EISDIR\)$/);
    writeFileSync(join(dir, 'file'), '');
    expect(() => installServer('cursor', join(dir, 'file', 'mcp.json'), SERVER)).toThrow(/^Cannot edit .*: a part of its path is a file, not a folder/);
    expect(readdirSync(dir).sort()).toEqual(['dangling.json', 'dotfiles', 'file', 'folder.json', 'read-only.json']);
  });

  it('makes the backup anew rather than write through a symlink left in its place', () => {
    const project = join(dir, 'cloned');
    mkdirSync(join(project, '.cursor'), { recursive: true });
    writeFileSync(join(dir, 'bashrc'), 'export PATH=~/bin:$PATH\n');
    writeFileSync(join(project, '.cursor', 'mcp.json'), '{}');
    symlinkSync(join(dir, 'bashrc'), join(project, '.cursor', 'mcp.json.bak'));
    installServer('cursor', join(project, '.cursor', 'mcp.json'), SERVER);
    expect(readFileSync(join(dir, 'bashrc'), 'utf8')).toBe('export PATH=~/bin:$PATH\n');
    expect(lstatSync(join(project, '.cursor', 'mcp.json.bak')).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(project, '.cursor', 'mcp.json.bak'), 'utf8')).toBe('{}');
  });

  it('says so when the backup would go where a folder is, or the name is too long, and changes nothing', () => {
    const path = join(dir, 'with-bak-folder.json');
    writeFileSync(path, '{}');
    mkdirSync(`${path}.bak`);
    expect(() => installServer('cursor', path, SERVER)).toThrow(new CliError(`${path}.bak, where the file as it was is kept, is a folder`));
    expect(readFileSync(path, 'utf8')).toBe('{}');
    expect(() => installServer('cursor', join(dir, `${'x'.repeat(300)}.json`), SERVER)).toThrow(/^Cannot edit .*: its name is too long \(ENAMETOOLONG\)$/);
  });

  it('keeps the mode whatever the umask, and under root the owner, of the file and its backup', () => {
    const path = join(dir, 'shared-mode.json');
    writeFileSync(path, '{}');
    chmodSync(path, 0o664);
    const asRoot = process.getuid?.() === 0;
    if (asRoot) chownSync(path, 65534, 65534);
    installServer('cursor', path, SERVER);
    for (const file of [path, `${path}.bak`]) {
      expect(statSync(file).mode & 0o777).toBe(0o664);
      if (asRoot) expect(statSync(file)).toMatchObject({ uid: 65534, gid: 65534 });
    }
  });

  it('refuses a pipe or a device rather than replace it with a file (or wait on it)', () => {
    const pipe = join(dir, 'pipe.json');
    execFileSync('mkfifo', [pipe]);
    try {
      expect(() => installServer('cursor', pipe, SERVER)).toThrow(new CliError(`${pipe} is not a regular file`));
      expect(() => uninstallServer('cursor', pipe, 'notes')).toThrow(new CliError(`${pipe} is not a regular file`));
      expect(lstatSync(pipe).isFIFO()).toBe(true);
      expect(existsSync(`${pipe}.bak`)).toBe(false);
    } finally {
      rmSync(pipe);
    }
  });

  it('refuses a file that is not UTF-8, whose other bytes it could not write back', () => {
    const path = join(dir, 'latin1.json');
    const bytes = Buffer.from('{"mcpServers": {"a": {"command": "C:\\\\Users\\\\Ren\u00e9\\\\a.exe"}}}', 'latin1');
    writeFileSync(path, bytes);
    expect(() => installServer('cursor', path, SERVER)).toThrow(/latin1\.json is not a configuration this command can edit: it is not UTF-8 text/);
    expect(() => uninstallServer('cursor', path, 'a')).toThrow(/it is not UTF-8 text/);
    expect(readFileSync(path)).toEqual(bytes);
    expect(existsSync(`${path}.bak`)).toBe(false);
  });

  it('says so when the file to uninstall from is not there', () => {
    const path = join(dir, 'missing', 'mcp.json');
    expect(() => uninstallServer('cursor', path, 'notes')).toThrow(
      expect.objectContaining({ message: `No server named notes in ${path}`, hint: 'There is no such file: check --client, --scope or --config-file.' }),
    );
  });

  it('loses no entry when installs run at once', async () => {
    const file = join(dir, 'shared.json');
    writeFileSync(file, '{"mcpServers": {}}');
    const names = ['a', 'b', 'c', 'd', 'e'];
    const runs = await Promise.all(names.map((name) => mcpkit(['install', INPUT_APP, '--client', 'cursor', '--config-file', file, '--name', name], dir)));
    expect(runs.map((run) => run.code)).toEqual(names.map(() => 0));
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).mcpServers).sort()).toEqual(names);
    expect(existsSync(`${file}.mcpkit-lock`)).toBe(false);
  });
});

describe("each client's documented file", () => {
  const place = (platform: NodeJS.Platform): ClientPlace => ({
    platform,
    home: platform === 'win32' ? 'C:\\Users\\ann' : '/home/ann',
    appData: platform === 'win32' ? 'C:\\Users\\ann\\AppData\\Roaming' : undefined,
    cwd: '/work/site',
  });

  it.each([
    ['claude-desktop', 'user', 'darwin', '/home/ann/Library/Application Support/Claude/claude_desktop_config.json'],
    ['claude-desktop', 'user', 'win32', 'C:\\Users\\ann\\AppData\\Roaming\\Claude\\claude_desktop_config.json'],
    ['claude-desktop', 'user', 'linux', '/home/ann/.config/Claude/claude_desktop_config.json'],
    ['claude-code', 'user', 'linux', '/home/ann/.claude.json'],
    ['claude-code', 'user', 'win32', 'C:\\Users\\ann\\.claude.json'],
    ['vscode', 'user', 'win32', 'C:\\Users\\ann\\AppData\\Roaming\\Code\\User\\mcp.json'],
    ['windsurf', 'user', 'win32', 'C:\\Users\\ann\\.codeium\\windsurf\\mcp_config.json'],
    ['claude-code', 'project', 'linux', '/work/site/.mcp.json'],
    ['cursor', 'user', 'linux', '/home/ann/.cursor/mcp.json'],
    ['cursor', 'project', 'darwin', '/work/site/.cursor/mcp.json'],
    ['vscode', 'user', 'darwin', '/home/ann/Library/Application Support/Code/User/mcp.json'],
    ['vscode', 'user', 'linux', '/home/ann/.config/Code/User/mcp.json'],
    ['vscode', 'project', 'linux', '/work/site/.vscode/mcp.json'],
    ['windsurf', 'user', 'linux', '/home/ann/.codeium/windsurf/mcp_config.json'],
  ] as const)('%s, %s scope, on %s: %s', (client, scope, platform, expected) => {
    expect(CLIENT_FILES[client].paths[scope]!(place(platform))).toBe(expected);
  });

  it('ignores an empty or relative XDG_CONFIG_HOME or APPDATA (the file landed under the current folder)', () => {
    for (const xdgConfig of ['', 'config', '/home/ann/xdg'])
      expect(CLIENT_FILES.vscode.paths.user!({ ...place('linux'), xdgConfig })).toBe(
        xdgConfig.startsWith('/') ? '/home/ann/xdg/Code/User/mcp.json' : '/home/ann/.config/Code/User/mcp.json',
      );
    expect(CLIENT_FILES['claude-desktop'].paths.user!({ ...place('win32'), appData: '' })).toBe(
      'C:\\Users\\ann\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
    );
  });
});

describe('mcpkit install, the installed command line, mcpkit uninstall', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-install-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("writes the project's .mcp.json; the command read back from it serves with the --env and -- args given; uninstall restores the file", async () => {
    const file = join(dir, '.mcp.json');
    writeFileSync(file, EXISTING['claude-code']);
    const installed = await mcpkit(
      ['install', INPUT_APP, '--client', 'claude-code', '--scope', 'project', '--env', 'INPUT_APP_GREETING=hello there', '--', '/srv/a', 'b c', '--http'],
      dir,
    );
    expect(installed).toMatchObject({ code: 0, stdout: `added input-app in ${file}\n` });

    const entry = (JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }> })
      .mcpServers['input-app'];
    const transport = new StdioClientTransport({ command: entry.command, args: entry.args, env: entry.env, stderr: 'pipe' });
    const client = new Client({ name: 'install-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['server_input']);
      const result = (await client.callTool({ name: 'server_input', arguments: {} })) as { content: Array<{ text: string }> };
      expect(JSON.parse(result.content[0].text)).toEqual({ args: ['/srv/a', 'b c', '--http'], greeting: 'hello there' });
    } finally {
      await client.close();
    }

    expect(await mcpkit(['uninstall', 'input-app', '--client', 'claude-code', '--scope', 'project'], dir)).toMatchObject({
      code: 0,
      stdout: `removed input-app from ${file}\n`,
    });
    expect(readFileSync(file, 'utf8')).toBe(EXISTING['claude-code']);
  });

  it("writes the user's file under HOME by default, and says why it refuses a file it cannot read", async () => {
    const home = join(dir, 'home');
    const installed = await mcpkit(['install', INPUT_APP, '--client', 'windsurf', '--name', 'inputs'], dir, { HOME: home });
    const file = join(home, '.codeium', 'windsurf', 'mcp_config.json');
    expect(installed).toMatchObject({ code: 0, stdout: `added inputs in ${file}\n` });
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).mcpServers)).toEqual(['inputs']);

    writeFileSync(file, '{ "mcpServers": { ');
    const refused = await mcpkit(['install', INPUT_APP, '--client', 'windsurf', '--config-file', file], dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error .*mcp_config\.json is not a configuration this command can edit: .* at line 1, column \d+\nhint {2}Fix the file/);
    expect(readFileSync(file, 'utf8')).toBe('{ "mcpServers": { ');
  });
});

describe('mcpkit start and mcpkit config with --env and -- args', () => {
  it('start: the app module loads with the environment and arguments given, and no argument of mcpkit', async () => {
    const args = [CLI, 'start', INPUT_APP, '--env', 'INPUT_APP_GREETING=hi', '--env', 'UNUSED=a=b', '--', 'one', '--stdio', '--'];
    const server = RawStdioClient.spawn(process.execPath, args, { ...process.env, LOG_LEVEL: 'warn' });
    try {
      await server.initialize();
      const answer = await server.request('tools/call', { name: 'server_input', arguments: {} });
      expect(JSON.parse((answer.result as { content: Array<{ text: string }> }).content[0].text)).toEqual({ args: ['one', '--stdio', '--'], greeting: 'hi' });
    } finally {
      server.kill();
    }
  });

  it('config: carries them into the snippet, and refuses them with --http', async () => {
    const printed = await mcpkit(['config', '--client', 'cursor', INPUT_APP, '--env', 'INPUT_APP_GREETING=hi', '--', '/srv/a b'], __dirname);
    expect(JSON.parse(printed.stdout)).toEqual({
      mcpServers: {
        'input-app': { command: process.execPath, args: [CLI, 'start', INPUT_APP, '--stdio', '--', '/srv/a b'], env: { INPUT_APP_GREETING: 'hi' } },
      },
    });
    const refused = await mcpkit(['config', '--client', 'cursor', '--http', 'http://127.0.0.1:3000/mcp', '--name', 'x', '--', '/srv'], __dirname);
    expect(refused).toMatchObject({ code: 2, stderr: expect.stringContaining('error --env and -- <args> are for a server the client launches') });
  });
});

describe('mcpkit config --client claude-code with --env', () => {
  it('puts the server name before --env, which claude mcp add reads as taking several values', async () => {
    const printed = await mcpkit(
      ['config', '--client', 'claude-code', INPUT_APP, '--env', 'INPUT_APP_GREETING=hi there', '--env', 'B=1', '--', '/srv/a'],
      __dirname,
    );
    expect(printed).toMatchObject({ code: 0 });
    expect(printed.stdout).toBe(
      `claude mcp add input-app --env 'INPUT_APP_GREETING=hi there' --env B=1 -- ${process.execPath} ${CLI} start ${INPUT_APP} --stdio -- /srv/a\n`,
    );
  });
});

describe('mcpkit install and uninstall --config-file', () => {
  it('refuses an empty one rather than edit the client’s own file', async () => {
    const home = mkdtempSync(join(tmpdir(), 'mcpkit-empty-config-file-'));
    try {
      for (const args of [
        ['install', INPUT_APP, '--client', 'cursor', '--config-file', ''],
        ['uninstall', 'input-app', '--client', 'cursor', '--config-file', ''],
      ])
        expect(await mcpkit(args, home, { HOME: home })).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error --config-file is empty\n/) });
      expect(readdirSync(home)).toEqual([]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('mcpkit install and uninstall without a home folder', () => {
  it('refuses the user scope when HOME is empty or relative, rather than write under the current folder', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'mcpkit-no-home-'));
    try {
      for (const home of ['', 'relative'])
        expect(await mcpkit(['install', INPUT_APP, '--client', 'cursor'], cwd, { HOME: home })).toMatchObject({
          code: 1,
          stderr: expect.stringMatching(/^error Your home folder is not known \(HOME is ".*"\)\nhint {2}Set HOME/),
        });
      expect(readdirSync(cwd)).toEqual([]);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

describe('mcpkit install and config --name', () => {
  it.each([[''], ['  '], ['two\nlines']])('refuses %j as a name, before writing anything', async (name) => {
    const file = join(tmpdir(), `mcpkit-name-${process.pid}.json`);
    const refused = await mcpkit(['install', INPUT_APP, '--client', 'cursor', '--config-file', file, '--name', name], __dirname);
    expect(refused).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error --name must not be blank or hold control characters/) });
    expect(existsSync(file)).toBe(false);
    expect(await mcpkit(['config', '--client', 'cursor', '--http', 'http://127.0.0.1:3000/mcp', '--name', name], __dirname)).toMatchObject({ code: 2 });
  });
});

describe('mcpkit output piped into a reader that stops early', () => {
  it('ends quietly, without a stack trace', async () => {
    const piped = await new Promise<{ stdout: string; stderr: string }>((resolve) =>
      execFile(
        'sh',
        ['-c', `"${process.execPath}" "${CLI}" install --help | head -c 1; "${process.execPath}" "${CLI}" config --help | true`],
        (_, stdout, stderr) => resolve({ stdout, stderr }),
      ),
    );
    expect(piped).toEqual({ stdout: 'U', stderr: '' });
  });
});
