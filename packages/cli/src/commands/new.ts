import { createInterface } from 'node:readline/promises';
import { resolve } from 'node:path';
import { CliError } from '../cli-error';
import { scaffold } from '../new/scaffold';
import { err, out, pc, pcErr } from '../output';

export interface NewOptions {
  dir?: string;
  transport?: string;
  pm?: string;
  yes?: boolean;
  registry?: string;
  install?: boolean;
}

async function ask(question: string, choices: readonly string[], fallback: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    for (;;) {
      const answer = (await rl.question(`${question} (${choices.join('/')}) [${fallback}] `)).trim() || fallback;
      if (choices.includes(answer)) return answer;
      err(`  choose one of ${choices.join(', ')}`);
    }
  } finally {
    rl.close();
  }
}

/** `mcpkit new <name>`: scaffolds a project that installs and passes its tests right away. */
export async function newProject(name: string, options: NewOptions): Promise<void> {
  const interactive = process.stdin.isTTY === true && !options.yes;
  let transport = options.transport;
  let pm = options.pm;
  if (interactive) {
    transport ??= await ask('Transport', ['stdio', 'http', 'both'], 'both');
    pm ??= await ask('Package manager', ['npm', 'pnpm'], 'npm');
  }
  transport ??= 'both';
  pm ??= 'npm';
  if (!['stdio', 'http', 'both'].includes(transport))
    throw new CliError(`--transport must be stdio, http or both, not ${transport}`, 'For example: mcpkit new weather --transport stdio');
  if (pm !== 'npm' && pm !== 'pnpm') throw new CliError(`--pm must be npm or pnpm, not ${pm}`, 'For example: mcpkit new weather --pm pnpm');
  // npm's --registry is a URL; this one is a version range, and a URL here would be written into
  // package.json as each @mcpkit dependency's "version", which npm then fetches as a tarball.
  if (options.registry !== undefined && /[:/\\]/.test(options.registry))
    throw new CliError(
      `--registry takes the version range of the @mcpkit packages (e.g. ^0.1.0), not a registry's address: ${options.registry}`,
      `The project installs from the registry ${pm} uses: npm_config_registry=${options.registry} npx @mcpkit/cli new ${name} (or ${pm} config set registry ${options.registry}).`,
    );
  const dir = resolve(options.dir ?? name);
  await scaffold({
    name,
    dir,
    transport: transport as 'stdio' | 'http' | 'both',
    pm,
    registry: options.registry,
    install: options.install !== false,
    progress: (line) => err(pcErr.dim(`  ${line}`)),
  });
  out(`${pc.green('created')} ${name} in ${dir}`);
  // The start script serves HTTP in an HTTP-only project and stdio otherwise.
  out(`  cd ${dir}\n  ${pm} run build && ${pm} test\n  ${pm} start${transport === 'both' ? ' -- --stdio' : ''}`);
}
