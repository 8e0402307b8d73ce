/** The files of a new project, as text. `{{name}}` is the project name. */
export interface TemplateOptions {
  name: string;
  transport: 'stdio' | 'http' | 'both';
}

export function appSource(): string {
  return `import { createApp, Field, Prompt, Resource, Tool } from '@mcpkit/core';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

export class GreetInput {
  @Field({ description: 'Who to greet' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name: string;
}

export class HaikuArgs {
  @Field({ description: 'What the haiku is about' })
  @IsString()
  topic: string;

  @Field({ description: 'A mood, e.g. calm or playful' })
  @IsOptional()
  @IsString()
  mood?: string;
}

/** One tool, one resource and one prompt: replace them with yours. */
export class Greeter {
  @Tool({ description: 'Greets someone by name', annotations: { readOnlyHint: true } })
  greet(input: GreetInput): string {
    return \`Hello, \${input.name}!\`;
  }

  @Resource({ uri: 'about://server', name: 'about', description: 'What this server does', mimeType: 'text/plain' })
  about(): string {
    return 'A new MCP server built with mcpkit.';
  }

  @Prompt({ description: 'Asks for a haiku' })
  haiku(args: HaikuArgs): string {
    return \`Write a haiku about \${args.topic}\${args.mood ? \` in a \${args.mood} mood\` : ''}.\`;
  }
}

// Side-effect free: \`mcpkit start\`, \`mcpkit inspect\` and the tests load the app from here.
export const app = createApp({ name: '{{name}}', version: '0.1.0', providers: [Greeter] });
`;
}

export function testSource(): string {
  return `import { firstText, TestClient } from '@mcpkit/testing';
import { app } from '../src/app';

describe('{{name}}', () => {
  it('greets', async () => {
    const client = await TestClient.connect(app);
    expect(firstText(await client.callTool('greet', { name: 'Ada' }))).toBe('Hello, Ada!');
  });

  it('rejects an empty name with a message the model can act on', async () => {
    const client = await TestClient.connect(app);
    const result = await client.callTool('greet', { name: '' });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain('name:');
  });

  it('serves its resource and prompt', async () => {
    const client = await TestClient.connect(app);
    expect(firstText(await client.readResource('about://server'))).toContain('mcpkit');
    const prompt = await client.getPrompt('haiku', { topic: 'the sea' });
    expect(prompt.messages[0].content).toEqual({ type: 'text', text: 'Write a haiku about the sea.' });
  });
});
`;
}

// Legacy decorators with metadata: what class-validator and mcpkit read (TC39 decorators carry none).
export const TSCONFIG = `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "commonjs",
    "moduleResolution": "node10",
    "lib": ["ES2022"],
    "types": ["node", "jest"],
    "strict": true,
    "esModuleInterop": true,
    "skipLibCheck": true,
    "experimentalDecorators": true,
    "emitDecoratorMetadata": true,
    "useDefineForClassFields": false,
    "strictPropertyInitialization": false,
    "sourceMap": true
  },
  "include": ["src", "test"]
}
`;

export const TSCONFIG_BUILD = `{
  "extends": "./tsconfig.json",
  "compilerOptions": { "rootDir": "src", "outDir": "dist", "types": ["node"] },
  "include": ["src"]
}
`;

export const JEST_CONFIG = `/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  setupFiles: ['reflect-metadata'],
  transform: { '^.+\\\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
};
`;

export const GITIGNORE = `node_modules/
dist/
`;

/** The commands a project's README lists: only those of the transports it serves. */
function commands(transport: TemplateOptions['transport']): string {
  const lines: Array<[string, string]> = [
    ['npm run build', 'compile (tsc keeps the decorator metadata mcpkit reads)'],
    ['npm test', 'in-process tests with @mcpkit/testing'],
  ];
  if (transport === 'stdio') {
    lines.push(['npm start', 'serve on stdin/stdout'], ['npm run dev', 'rebuild and restart on change (the client stays connected)']);
  } else if (transport === 'http') {
    lines.push(['npm start', 'serve on http://127.0.0.1:3000/mcp'], ['npm run dev', 'rebuild and restart on change, behind the same port']);
  } else {
    lines.push(
      ['npm start -- --stdio', 'serve on stdin/stdout'],
      ['npm start -- --http', 'serve on http://127.0.0.1:3000/mcp'],
      ['npm run dev', 'rebuild and restart on change (stdio; the client stays connected)'],
    );
  }
  lines.push(['npx mcpkit inspect', 'what the server offers'], ['npx mcpkit call greet name=Ada', '']);
  const width = Math.max(...lines.filter(([, note]) => note).map(([command]) => command.length)) + 3;
  return lines.map(([command, note]) => (note ? `${command.padEnd(width)}# ${note}` : command)).join('\n');
}

/** Where a scaffolded project's @mcpkit packages come from: the registry, or tarballs packed from a checkout. */
export type PackageSource = { registry: string } | { checkout: string; pm: 'npm' | 'pnpm' };

/** How the project gets mcpkit: said plainly, since `npm install @mcpkit/core` fails until it is published. */
function packagesSection(source: PackageSource): string {
  if ('registry' in source) return `The \`@mcpkit/*\` packages come from the npm registry (\`${source.registry}\`).\n`;
  const overrides = source.pm === 'npm' ? '`overrides`' : '`pnpm.overrides`';
  return `mcpkit is not on the npm registry yet, so \`npm install @mcpkit/core\` fails: this project
does not install it from there. \`mcpkit new\` packed the \`@mcpkit/*\` packages of the mcpkit
checkout at \`${source.checkout}\` into \`vendor/\`, and package.json depends on those tarballs
(\`file:./vendor/…\`; ${overrides} send the packages' dependencies on each other there too), so
\`${source.pm} install\` installs them from \`vendor/\` and nothing else is needed. Keep the folder
(commit it). For a newer mcpkit, scaffold from a newer checkout and take its \`vendor/\` and the
\`@mcpkit\` lines of its package.json; once mcpkit is published, \`mcpkit new --registry <range>\`
writes plain version ranges instead.
`;
}

export function readme(options: TemplateOptions, startCommand: string, source: PackageSource): string {
  return `# {{name}}

An MCP server built with [mcpkit](https://github.com/mcpkit/mcpkit): decorated classes in
\`src/app.ts\`, tests in \`test/\`.

\`\`\`bash
${commands(options.transport)}
\`\`\`

## The mcpkit packages

${packagesSection(source)}
## Use it from a client

${
  options.transport === 'http'
    ? ''
    : `Over stdio the client launches the server (absolute paths; after \`npm run build\`):

- Claude Code: \`claude mcp add {{name}} -- ${startCommand}\`
- Claude Desktop, Cursor, VS Code, Windsurf: \`npx mcpkit install --client claude-desktop\` (or \`cursor\`, \`vscode\`,
  \`windsurf\`) adds it to the client's own configuration file; \`npx mcpkit config --client …\` prints the snippet instead
- Arguments and environment for the server: \`npx mcpkit install --client cursor --env KEY=value -- <args…>\`

`
}${
    options.transport === 'stdio'
      ? ''
      : `Over HTTP, start the server (\`${options.transport === 'http' ? 'npm start' : 'npm start -- --http'}\`) and point the client at it:

- Claude Code: \`claude mcp add --transport http {{name}} http://127.0.0.1:3000/mcp\`
- VS Code, Cursor: \`npx mcpkit config --client vscode --http http://127.0.0.1:3000/mcp\`
`
  }`;
}
