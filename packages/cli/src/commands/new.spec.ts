import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliError } from '../cli-error';
import { newProject } from './new';

describe('mcpkit new --registry', () => {
  let parent: string;
  beforeEach(() => (parent = mkdtempSync(join(tmpdir(), 'mcpkit-new-spec-'))));
  afterEach(() => rmSync(parent, { recursive: true, force: true }));

  it.each(['http://127.0.0.1:4873/', 'https://registry.npmjs.org', 'file:../vendor', '../vendor/mcpkit-core-0.1.0.tgz'])(
    'refuses %s (an address, not a version range) before writing anything, and says how to pick the registry',
    async (value) => {
      const dir = join(parent, 'demo');
      const failure = await newProject('demo', { dir, registry: value, yes: true, install: false }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(CliError);
      expect((failure as CliError).message).toContain('version range');
      expect((failure as CliError).hint).toContain(`npm_config_registry=${value}`);
      expect(existsSync(dir)).toBe(false);
    },
  );
});
