import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'packages', 'cli', 'dist', 'cli.js');
const NOTES = join(ROOT, 'apps', 'notes');

// The registry's official schema (https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json,
// modelcontextprotocol/static at a9ba437d9fbbe92076a24b20d56449ac7c7786ac, generated from the
// registry's openapi.yaml) is not copied into this repository: it is read from shared/ beside the
// checkout, or from MCP_SERVER_SCHEMA.
const SCHEMA = [process.env.MCP_SERVER_SCHEMA, join(ROOT, '..', 'shared', 'vendor', 'mcp-registry', 'server.schema.2025-12-11.json')].find(
  (path): path is string => path !== undefined && existsSync(path),
);

describe('mcpkit server-json on apps/notes', () => {
  const written = JSON.parse(
    execFileSync(process.execPath, [CLI, 'server-json', '--remote', 'https://notes.example.com/mcp'], {
      cwd: NOTES,
      env: { ...process.env, NOTES_DB: ':memory:' },
      encoding: 'utf8',
    }),
  ) as Record<string, unknown>;

  it('writes the name, version and description of package.json, the npm package over stdio with its arguments and env, and the remote', () => {
    const pkg = JSON.parse(readFileSync(join(NOTES, 'package.json'), 'utf8')) as { version: string };
    expect(written).toEqual({
      $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
      name: 'io.github.mcpkit/notes',
      title: 'Notes',
      description: 'mcpkit example: a notes server backed by SQLite',
      version: pkg.version,
      packages: [
        {
          registryType: 'npm',
          registryBaseUrl: 'https://registry.npmjs.org',
          identifier: '@mcpkit/app-notes',
          version: pkg.version,
          transport: { type: 'stdio' },
          packageArguments: [{ type: 'positional', value: '--stdio' }],
          environmentVariables: [{ name: 'NOTES_DB', description: 'Path of the SQLite database file (default: data/notes.db beside the app)' }],
        },
      ],
      remotes: [{ type: 'streamable-http', url: 'https://notes.example.com/mcp' }],
    });
  });

  (SCHEMA ? it : it.skip)('validates against the registry schema 2025-12-11', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(SCHEMA!, 'utf8')) as object);
    validate(written);
    expect(validate.errors ?? []).toEqual([]);
    // And the schema is really checking: a name without a namespace is refused.
    expect(validate({ ...written, name: 'notes' })).toBe(false);
  });
});
