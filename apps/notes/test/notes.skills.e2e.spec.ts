import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const MAIN = join(__dirname, '..', 'dist', 'main.js');
const ERAS = { legacy: undefined, modern: { mode: { pin: '2026-07-28' } } } as const;

// The notes ship one skill (skills/tidy-notes): a host built on the official SDK's SkillsClient
// finds it, reads it verified (size, digest, frontmatter), and every tool it names exists.
describe.each(Object.keys(ERAS) as Array<keyof typeof ERAS>)('the notes skill, to the official SkillsClient (%s era)', (era) => {
  let dir: string;
  let client: Client;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcpkit-notes-skills-'));
    client = new Client({ name: 'notes-skills', version: '1.0.0' }, ERAS[era] ? { versionNegotiation: ERAS[era] } : {});
    const env = { ...process.env, LOG_LEVEL: 'warn', NOTES_DB: join(dir, 'notes.db') } as Record<string, string>;
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MAIN, '--stdio'], env, stderr: 'pipe' }));
  });

  afterAll(async () => {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists tidy-notes, reads it verified, and every tool it names is a tool of the server', async () => {
    const skills = new SkillsClient(client);
    expect([skills.supported, skills.directoryRead]).toEqual([true, true]);
    const { skills: listed } = await skills.list();
    expect(listed.map((skill) => skill.uri)).toEqual(['skill://tidy-notes/SKILL.md']);
    const tidy = listed[0]!;
    expect(tidy.frontmatter).toMatchObject({ name: 'tidy-notes', license: 'MIT', metadata: { version: '1.0' } });
    const manifest = await skills.read(tidy);
    expect(manifest.verified).toBe(true);
    const checklist = await skills.read(tidy, 'references/checklist.md');
    expect(checklist.verified).toBe(true);
    const named = new Set([...`${manifest.body}\n${checklist.text}`.matchAll(/`([a-z]+_[a-z_]+)`/g)].map(([, name]) => name));
    const tools = new Set((await client.listTools()).tools.map((tool) => tool.name));
    expect([...named].sort()).toEqual(['create_note', 'delete_note', 'draft_note', 'search_notes', 'update_note']);
    expect([...named].filter((name) => !tools.has(name!))).toEqual([]);
  });
});
