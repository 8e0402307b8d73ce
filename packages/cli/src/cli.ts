#!/usr/bin/env node
// First: the modules loaded after it reuse their compiled code from the previous run (Node ≥ 22.1).
import '@mcpkit/core/compile-cache';
import { Command, CommanderError, Option } from 'commander';
import { CliError, EXIT } from './cli-error';
import { CLIENTS, config } from './commands/config';
import { CLIENT_FILES } from './install/client-files';
import { collectEnv, splitServerArgs } from './server-input';
import { CALL_ERAS, parseCallEra } from './eras/call-eras';
import { DEFAULT_MANIFEST_ERA, MANIFEST_ERAS } from './eras/manifest-eras';
import { report } from './output';
import { CLI_VERSION } from './version';

// A command's module loads when that command runs: `mcpkit start --stdio` loads neither Fastify
// nor the test client nor the scaffolder.
/* eslint-disable @typescript-eslint/no-require-imports */
const commands = {
  call: () => require('./commands/call') as typeof import('./commands/call'),
  client: () => require('./commands/client') as typeof import('./commands/client'),
  buildValidators: () => require('./commands/build-validators') as typeof import('./commands/build-validators'),
  diff: () => require('./commands/diff') as typeof import('./commands/diff'),
  dev: () => require('./commands/dev') as typeof import('./commands/dev'),
  install: () => require('./commands/install') as typeof import('./commands/install'),
  inspect: () => require('./commands/inspect') as typeof import('./commands/inspect'),
  lint: () => require('./commands/lint') as typeof import('./commands/lint'),
  manifest: () => require('./commands/manifest') as typeof import('./commands/manifest'),
  new: () => require('./commands/new') as typeof import('./commands/new'),
  openapi: () => require('./commands/openapi') as typeof import('./commands/openapi'),
  pack: () => require('./commands/pack') as typeof import('./commands/pack'),
  serverJson: () => require('./commands/server-json') as typeof import('./commands/server-json'),
  start: () => require('./commands/start') as typeof import('./commands/start'),
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** `--export <name>`: which export of the entry is the app, when the module does not say it alone. */
function exportOption(): Option {
  return new Option('--export <name>', 'the export that is the app, or a function returning it (default: the one app the module exports)');
}

/** `--env K=V`, repeatable: the server's environment. */
function envOption(): Option {
  return new Option('--env <name=value>', 'set an environment variable of the server (repeatable); its arguments go after --').argParser(collectEnv);
}

// Output piped into a reader that stops early (`mcpkit install --help | head`) ends the command
// quietly, not with a stack trace. A server's stdout is its transport's to handle.
if (!['start', 'dev'].includes(process.argv[2]))
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? EXIT.OK);
  });

// `-- <server args…>` ends the command line of start, dev, config and install: taken off here,
// so that commander sees only mcpkit's own, and handed to the command as `args`.
const { argv, serverArgs } = splitServerArgs(process.argv);
// An app module loaded by any command sees no arguments of mcpkit's as its own
// (`process.argv.slice(2)`); `mcpkit start` gives it those after `--`.
process.argv = process.argv.slice(0, 2);

/** The usage line of the commands that start a server: its arguments come last, after `--`. */
const SERVER_USAGE = '[options] [entry] [-- <server args…>]';

// Commands that print results keep the app's own log quiet unless asked.
function quietLogs(): void {
  process.env.LOG_LEVEL ??= 'warn';
}

async function run(action: () => unknown): Promise<void> {
  try {
    const code = await action();
    if (typeof code === 'number') process.exitCode = code;
  } catch (error) {
    process.exitCode = report(error);
  }
}

/**
 * A command line commander rejects, as our own error: one line plus a hint, exit 2 (commander's
 * own message is silenced, so both kinds of usage error read alike). `command` is the subcommand
 * it was rejected in, if any.
 */
function usageError(error: CommanderError, command?: string): CliError {
  const [problem, ...more] = error.message.replace(/^error: /, '').split('\n');
  // Commander's suggestion ("(Did you mean --json?)") comes on the next line.
  const suggestion = more
    .join(' ')
    .trim()
    .replace(/^\((.*)\)$/, '$1');
  const help = command ? `mcpkit ${command} --help lists its options and arguments.` : 'mcpkit --help lists the commands.';
  return new CliError(problem, suggestion ? `${suggestion} ${help}` : help, EXIT.USAGE);
}

const program = new Command('mcpkit')
  .description('Run, inspect, call and connect MCP servers built with mcpkit')
  .version(CLI_VERSION)
  // Inherited by every command defined below: errors are reported by report(), once.
  .configureOutput({ outputError: () => undefined })
  .exitOverride();

program
  .command('new <name>')
  .description('scaffold a new MCP server project (one tool, resource and prompt, with tests)')
  .option('--dir <path>', 'project folder (default ./<name>)')
  .option('--transport <transport>', 'stdio | http | both')
  .option('--pm <pm>', 'npm | pnpm')
  .option(
    '--registry <range>',
    "depend on published @mcpkit packages of this version range (e.g. ^0.1.0; the registry is npm's own: npm_config_registry) instead of packing this checkout",
  )
  .option('--no-install', 'write the files only')
  .option('-y, --yes', 'no questions: defaults for everything not given')
  .addHelpText('after', '\nExamples:\n  mcpkit new weather\n  mcpkit new weather --dir /tmp/weather --transport stdio --pm npm --yes')
  .action((name: string, options) => run(() => commands.new().newProject(name, options)));

program
  .command('start [entry]')
  .usage(SERVER_USAGE)
  .description('serve a built app (default entry: "mcpkit.app" in package.json, then dist/app.js)')
  .option('--stdio', 'serve on stdin/stdout (the default)')
  .option('--http', 'serve Streamable HTTP')
  .option('--port <port>', 'HTTP port (default $PORT or 3000; 0 picks a free one)')
  .option('--host <host>', 'HTTP interface (default 127.0.0.1)')
  // `sessions`, as serveHttp calls it; `--stateless` is what the docs and scripts say.
  .addOption(new Option('--stateless', 'HTTP without sessions').implies({ sessions: false }))
  .addOption(exportOption())
  .addOption(envOption())
  .addHelpText(
    'after',
    '\nThe app reads its arguments (after --) as process.argv.slice(2) and --env as process.env.\n\nExamples:\n  mcpkit start --stdio\n  mcpkit start dist/app.js --http --port 8080\n  mcpkit start dist/app.js --env NOTES_DB=/tmp/notes.db -- --read-only /srv/notes',
  )
  .action((entry: string | undefined, options) => run(() => commands.start().start(entry, { ...options, args: serverArgs })));

program
  .command('dev [entry]')
  .usage(SERVER_USAGE)
  .description('rebuild on change (tsc --watch) and restart the server; over stdio the client stays connected')
  .option('--http', 'serve Streamable HTTP (restarts behind the same port)')
  .option('--port <port>', 'HTTP port (default $PORT or 3000)')
  .option('--host <host>', 'HTTP interface (default 127.0.0.1)')
  .addOption(exportOption())
  .addOption(envOption())
  .addHelpText(
    'after',
    '\nExamples:\n  mcpkit dev            # as the command of your MCP client\n  mcpkit dev --http --port 3000\n  mcpkit dev --env NOTES_DB=/tmp/notes.db -- /srv/notes',
  )
  .action((entry: string | undefined, options) => run(() => commands.dev().dev(entry, { ...options, args: serverArgs })));

program
  .command('inspect [entry]')
  .description('print the capability map: tools with their schemas, resources, templates, prompts')
  .option('--json', 'print JSON')
  .addOption(exportOption())
  .addHelpText('after', '\nExamples:\n  mcpkit inspect\n  mcpkit inspect dist/app.js --json\n  mcpkit inspect dist/tools.js --export weatherApp')
  .action((entry: string | undefined, options) => run(() => (quietLogs(), commands.inspect().inspect(entry, options))));

program
  .command('build-validators [entry]')
  .description(
    "compile the app's validators ahead of time (ajv standalone code) for createApp({ validators }): no code generated at run time, as Cloudflare Workers require",
  )
  .requiredOption('--out <file>', 'the CommonJS module to write (its .d.ts goes beside it)')
  .addOption(exportOption())
  .addHelpText('after', '\nExamples:\n  mcpkit build-validators dist/app.js --out dist/validators.generated.js')
  .action((entry: string | undefined, options) => run(() => (quietLogs(), commands.buildValidators().buildValidators(entry, options))));

program
  .command('manifest [entry]')
  .description("write the app's contract: every tool, resource, template, prompt and completion as each era publishes it, as canonical JSON")
  .option('--out <file>', 'write it to this file (default: stdout)')
  .option('--check', 'with --out: write nothing; exit 1 when the file is not the manifest of this app')
  .addOption(exportOption())
  .addHelpText('after', '\nExamples:\n  mcpkit manifest --out mcp-manifest.json\n  mcpkit manifest dist/app.js --out mcp-manifest.json --check')
  .action((entry: string | undefined, options) => run(() => (quietLogs(), commands.manifest().manifest(entry, options))));

program
  .command('diff <old> <new>')
  .description('classify every change between two versions of a contract (each a manifest .json file or an app) as breaking, risky or safe')
  .addOption(new Option('--format <format>', 'text, markdown (for a pull request) or json').choices(['text', 'markdown', 'json']).default('text'))
  .addOption(
    new Option('--fail-on <severity>', 'exit 1 when a change this harmful or worse is found').choices(['breaking', 'risky', 'none']).default('breaking'),
  )
  .addOption(exportOption())
  .addHelpText(
    'after',
    '\nExamples:\n  mcpkit diff base-manifest.json mcp-manifest.json\n  mcpkit diff base-manifest.json dist/app.js --format markdown --fail-on risky',
  )
  .action((before: string, after: string, options) => run(() => (quietLogs(), commands.diff().diff(before, after, options))));

program
  .command('lint [entry]')
  .description('check descriptions, names and schemas against the lint rules, and count what tools/list costs in tokens')
  .option('--budget <tokens>', "fail when an era's tools/list and instructions cost more tokens than this")
  .addOption(new Option('--tokenizer <encoding>', 'the BPE encoding to count with (default o200k_base)').choices(['o200k_base', 'cl100k_base']))
  .option('--config <file>', 'the lint config (default: mcpkit-lint.json beside package.json, else its "mcpkit": { "lint" })')
  .option('--json', 'print the report as JSON')
  .addOption(exportOption())
  .addHelpText('after', '\nExamples:\n  mcpkit lint\n  mcpkit lint dist/app.js --budget 8000\n  mcpkit lint mcp-manifest.json --tokenizer cl100k_base --json')
  .action((entry: string | undefined, options) => run(() => (quietLogs(), commands.lint().lint(entry, options))));

program
  .command('client [entry]')
  .description('generate a typed TypeScript client of the app: interfaces for every tool input and output, prompt and template, over any MCP client')
  .option('--out <file>', 'write it to this file (default: stdout)')
  .addOption(new Option('--era <revision>', 'the era whose published schemas are typed').choices([...MANIFEST_ERAS]).default(DEFAULT_MANIFEST_ERA))
  .addOption(exportOption())
  .addHelpText('after', '\nExamples:\n  mcpkit client --out src/notes-client.ts\n  mcpkit client mcp-manifest.json --out notes-client.ts')
  .action((entry: string | undefined, options) => run(() => (quietLogs(), commands.client().client(entry, options))));

/** A repeatable option's values, in order. */
const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

program
  .command('openapi <spec>')
  .description('generate a provider class with one @Tool per operation of an OpenAPI 3.0 or 3.1 document (a file or URL, JSON or YAML), to edit as your own')
  .option('--out <file>', 'write it to this file (default: stdout)')
  .option('--class <name>', 'the class name (default ApiTools)')
  .option('--base-url <url>', "the API's URL the class calls by default (default: the document's first absolute server URL)")
  .option('--include <operation>', 'keep only these operations: an operationId, METHOD /path (* one segment, ** any), or tag:<name> (repeatable)', collect)
  .option('--exclude <operation>', 'leave these operations out, as for --include (repeatable)', collect)
  .option('--name-prefix <prefix>', 'put before every tool name')
  .addHelpText(
    'after',
    '\nExamples:\n  mcpkit openapi petstore.yaml --out src/api.tools.ts\n  mcpkit openapi https://api.example.com/openapi.json --include tag:orders --class OrderTools',
  )
  .action((spec: string, options: { out?: string; class?: string; baseUrl?: string; include?: string[]; exclude?: string[]; namePrefix?: string }) =>
    run(() => commands.openapi().openapi(spec, { ...options, className: options.class })),
  );

program
  .command('server-json [entry]')
  .description(
    "write the MCP registry's server.json (schema 2025-12-11) from package.json (mcpName, version, description, mcpkit.stdio, mcpkit.env) and the app",
  )
  .option('--out <file>', 'write it to this file (default: stdout)')
  .option('--remote <url>', 'the Streamable HTTP URL where the server is hosted (default: package.json mcpkit.remote)')
  .addOption(exportOption())
  .addHelpText('after', '\nExamples:\n  mcpkit server-json --out server.json\n  mcpkit server-json --remote https://notes.example.com/mcp')
  .action((entry: string | undefined, options) => run(() => (quietLogs(), commands.serverJson().serverJson(entry, options))));

program
  .command('pack [entry]')
  .description(
    'build a .mcpb bundle for desktop clients: manifest.json (server entry, tools, user_config for mcpkit.env), the built project and its production dependencies',
  )
  .option('--out <file>', 'the bundle file (default <name>-<version>.mcpb)')
  .addOption(exportOption())
  .addHelpText('after', '\nExamples:\n  mcpkit pack\n  mcpkit pack dist/app.js --out notes.mcpb')
  .action((entry: string | undefined, options) => run(() => (quietLogs(), commands.pack().pack(entry, options))));

program
  .command('call [tool] [args...]')
  .description('call one tool in-process (arguments as key=value or --args JSON; the entry may come last)')
  .option('--args <json>', 'arguments as a JSON object')
  .option('--resource <uri>', 'read a resource instead')
  .option('--prompt <name>', 'get a prompt instead (arguments as key=value)')
  .option('--json', 'print the whole result as JSON')
  .option('--timeout <ms>', 'fail (exit 1) when no answer comes within this many ms; 0: no limit (default 60000)')
  .option('--task', 'run the tool as a task: print its status (to stderr) until it ends, then its result; Ctrl-C cancels it')
  .addOption(
    new Option('--era <era>', 'the protocol era to call with: legacy (initialize, then a session) or modern (_meta on every request)')
      .choices(CALL_ERAS)
      // After choices(): the help still lists legacy and modern, and the old name still parses.
      .argParser(parseCallEra)
      .default('legacy'),
  )
  .addOption(exportOption())
  .addHelpText(
    'after',
    '\nExamples:\n  mcpkit call add a=2 b=3\n  mcpkit call echo --args \'{"text":"hi"}\' dist/app.js\n  mcpkit call --resource notes://index --era modern --json\n  mcpkit call export_notes --task\n\nExit code 1 when the tool returns isError.',
  )
  .action((tool: string | undefined, args: string[], options) => run(() => (quietLogs(), commands.call().call(tool, args, options))));

program
  .command('config [entry]')
  .usage(SERVER_USAGE)
  .description(`print the config that connects a client: ${CLIENTS.join(', ')}`)
  .requiredOption('--client <client>', CLIENTS.join(' | '))
  .option('--http <url>', 'connect to a running HTTP server instead of launching over stdio')
  .option('--name <name>', "server name in the client (default: the app's name)")
  .addOption(exportOption())
  .addOption(envOption())
  .addHelpText(
    'after',
    '\nExamples:\n  mcpkit config --client claude-code\n  mcpkit config --client vscode --http http://127.0.0.1:3000/mcp\n  mcpkit config --client cursor --env NOTES_DB=/tmp/notes.db -- /srv/notes',
  )
  .action((entry: string | undefined, options) => run(() => (quietLogs(), config(entry, { ...options, args: serverArgs }))));

/** `--client`, `--scope` and `--config-file`: the file install and uninstall edit. */
function clientFileOptions(command: Command): Command {
  return command
    .requiredOption('--client <client>', CLIENTS.join(' | '))
    .addOption(
      new Option('--scope <scope>', 'user (all projects) or project (the file in this folder), where the client has both (default user)').choices([
        'user',
        'project',
      ]),
    )
    .option('--config-file <file>', "edit this file instead of the client's own");
}

clientFileOptions(
  program
    .command('install [entry]')
    .usage(SERVER_USAGE)
    .description(`add the server to a client's own configuration file, launched over stdio: ${Object.keys(CLIENT_FILES).join(', ')}`),
)
  .option('--name <name>', "server name in the client (default: the app's name)")
  .option('--force', 'replace an entry of that name that mcpkit did not install')
  .addOption(exportOption())
  .addOption(envOption())
  .addHelpText(
    'after',
    '\nOther entries, comments and layout stay as they are; the file as it was is kept as <file>.bak; installing the same again changes nothing.\n\nExamples:\n  mcpkit install --client claude-desktop\n  mcpkit install dist/app.js --client vscode --scope project --env NOTES_DB=/tmp/notes.db -- /srv/notes',
  )
  .action((entry: string | undefined, options) => run(() => (quietLogs(), commands.install().install(entry, { ...options, args: serverArgs }))));

clientFileOptions(program.command('uninstall <name>').description("remove the server of that name from a client's configuration file, and nothing else"))
  .addHelpText('after', '\nExamples:\n  mcpkit uninstall notes --client claude-desktop\n  mcpkit uninstall notes --client vscode --scope project')
  .action((name: string, options) => run(() => commands.install().uninstall(name, options)));

// Which command rejected the line, for the hint.
for (const command of program.commands)
  command.exitOverride((error) => {
    throw Object.assign(error, { command: command.name() });
  });

program.parseAsync(argv).catch((error: unknown) => {
  if (error instanceof CommanderError) {
    // Help and version are successes; help shown for a missing command is a usage error already printed.
    if (error.exitCode === 0 || error.code === 'commander.help' || error.code === 'commander.helpDisplayed' || error.code === 'commander.version') {
      process.exitCode = error.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
      return;
    }
    error = usageError(error, (error as CommanderError & { command?: string }).command);
  }
  process.exitCode = report(error);
});
