import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RawStdioClient } from '@mcpkit/testing';

// Under `mcpkit dev` (built: packages/cli/dist), a skill added to the app's folder reaches the
// client as notifications/resources/list_changed, and the next skills/list has it: dev restarts
// the server for code, not for a SKILL.md, so the server's own watch does this.
const CLI = join(__dirname, '..', '..', 'cli', 'dist', 'cli.js');
const CORE = join(__dirname, '..', '..', 'core');
const SKILLS = join(__dirname, '..');
const skill = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill\n---\n`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skills-dev-'));
  mkdirSync(join(dir, 'skills', 'first'), { recursive: true });
  writeFileSync(join(dir, 'skills', 'first', 'SKILL.md'), skill('first'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'skills-dev-fixture', private: true }));
  writeFileSync(
    join(dir, 'app.js'),
    `const { createApp } = require(${JSON.stringify(CORE)});
const { skills } = require(${JSON.stringify(SKILLS)});
exports.app = createApp({ name: 'skills-dev', version: '1', providers: [], extensions: [skills({ dir: ${JSON.stringify(join(dir, 'skills'))} })] });
`,
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const uris = (message: Record<string, unknown>) => (message.result as { skills: Array<{ uri: string }> }).skills.map((entry) => entry.uri);

it('mcpkit dev: a skill added to the folder is announced once and listed', async () => {
  const client = RawStdioClient.spawn(process.execPath, [CLI, 'dev', join(dir, 'app.js')], { ...process.env, LOG_LEVEL: 'warn' }, dir);
  try {
    await client.initialize();
    expect(uris(await client.request('skills/list', {}, 30_000))).toEqual(['skill://first/SKILL.md']);
    mkdirSync(join(dir, 'skills', 'second'));
    writeFileSync(join(dir, 'skills', 'second', 'SKILL.md'), skill('second'));
    await client.waitFor((message) => message.method === 'notifications/resources/list_changed', 20_000);
    expect(uris(await client.request('skills/list', {}))).toEqual(['skill://first/SKILL.md', 'skill://second/SKILL.md']);
    expect(client.messages.filter((message) => message.method === 'notifications/resources/list_changed')).toHaveLength(1);
  } finally {
    await Promise.race([client.end(), new Promise((resolve) => setTimeout(resolve, 5_000))]);
    client.kill();
  }
}, 60_000);
