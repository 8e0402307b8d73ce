import { isAbsolute, relative, resolve } from 'node:path';
import { createApp, Field, Tool } from '@mcpkit/core';
import { IsString } from 'class-validator';

class PathInput {
  @Field({ description: 'A path to check' })
  @IsString()
  path: string;
}

/** The folders the server may touch, given when it starts, and a label from its environment. */
class Folders {
  constructor(
    private readonly allowed: readonly string[],
    private readonly label: string,
  ) {}

  @Tool({ description: 'Says whether a path is inside an allowed folder', annotations: { readOnlyHint: true } })
  check(input: PathInput): string {
    const path = resolve(input.path);
    const inside = this.allowed.some((folder) => {
      const rest = relative(resolve(folder), path);
      return !rest.startsWith('..') && !isAbsolute(rest);
    });
    return `${this.label}: ${path} is ${inside ? 'allowed' : 'outside ' + this.allowed.join(', ')}`;
  }
}

// A factory for tests: they give the folders and the environment themselves.
export function createFoldersApp(allowed: readonly string[], env: NodeJS.ProcessEnv = process.env) {
  return createApp({ name: 'folders', version: '1.0.0', providers: [new Folders(allowed, env.FOLDERS_LABEL ?? 'folders')] });
}

// What `mcpkit start dist/app.js --env FOLDERS_LABEL=docs -- /srv/a /srv/b` serves: the arguments after
// `--` are process.argv.slice(2) and --env is in process.env, both set before this module loads.
export const app = createFoldersApp(process.argv.slice(2));
