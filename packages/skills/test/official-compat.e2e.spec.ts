import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { SkillsClient, type Skill } from '@modelcontextprotocol/client/ext/skills';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

// One client script, two servers over stdio on the same folder: the official TypeScript SDK's
// Skills server (@modelcontextprotocol/server/ext/skills, a devDependency) and @mcpkit/skills
// (built: run `pnpm build` first). The official SkillsClient verifies every file's size, digest
// and frontmatter against the entries; the answers of both servers must be equal.
const FIXTURES = join(__dirname, 'fixtures');
const FOLDER = join(FIXTURES, 'skills');
const SERVERS = { official: join(FIXTURES, 'official-server.mjs'), mcpkit: join(FIXTURES, 'mcpkit-server.js') };
const ERAS = { legacy: undefined, modern: { mode: { pin: '2026-07-28' } } } as const;

async function errorCode(run: () => Promise<unknown>): Promise<unknown> {
  return run().then(
    () => 'no error',
    (error: { code?: unknown }) => error.code,
  );
}

/** What a host learns of the server's skills: every answer, with each file read and verified. */
async function answers(server: string, era: keyof typeof ERAS): Promise<Record<string, unknown>> {
  const client = new Client({ name: 'compat', version: '1.0.0' }, ERAS[era] ? { versionNegotiation: ERAS[era] } : {});
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [server, FOLDER], stderr: 'ignore' }));
  try {
    const skills = new SkillsClient(client);
    const listing = await skills.list();
    const files: Record<string, unknown> = {};
    const dirs: Record<string, unknown> = {};
    const got: Record<string, unknown> = {};
    for (const skill of listing.skills) {
      got[skill.uri] = await skills.get(skill.uri);
      for (const resource of skill.resources as Exclude<Skill['resources'], 'dynamic'>) {
        const file = await skills.read(skill, resource.uri);
        const digest = `sha256:${createHash('sha256').update(file.bytes).digest('hex')}`;
        files[resource.uri] = { ...file, bytes: Buffer.from(file.bytes).toString('base64'), digestMatches: digest === resource.digest };
      }
      const root = skill.uri.slice(0, -'/SKILL.md'.length);
      for (const dir of [root, ...new Set((skill.resources as Array<{ uri: string }>).map((r) => r.uri.slice(0, r.uri.lastIndexOf('/'))))])
        dirs[dir] = await skills.readDirectory(dir);
    }
    return {
      extensions: client.getServerCapabilities()?.extensions,
      supported: skills.supported,
      directoryRead: skills.directoryRead,
      listing,
      got,
      files,
      dirs,
      unknownSkill: await errorCode(() => skills.get('skill://nope/SKILL.md')),
      fileAsDirectory: await errorCode(() => skills.readDirectory('skill://tidy-notes/SKILL.md')),
    };
  } finally {
    await client.close();
  }
}

describe.each(Object.keys(ERAS) as Array<keyof typeof ERAS>)('the same client script against the official server and mcpkit (%s era)', (era) => {
  let official: Record<string, unknown>;
  let mcpkit: Record<string, unknown>;
  beforeAll(async () => {
    [official, mcpkit] = await Promise.all([answers(SERVERS.official, era), answers(SERVERS.mcpkit, era)]);
  }, 30_000);

  it('gets equal answers, file by file', () => {
    expect(mcpkit).toEqual(official);
  });

  it('got every file verified against its digest, and the frontmatter as written', () => {
    const files = Object.values(mcpkit.files as Record<string, { verified: boolean; digestMatches: boolean }>);
    // Six files of their own, and the nested skill's SKILL.md listed by both skills.
    expect(files).toHaveLength(7);
    expect(files.every((file) => file.verified && file.digestMatches)).toBe(true);
    const tidy = (mcpkit.got as Record<string, { skill: Skill }>)['skill://tidy-notes/SKILL.md']!.skill;
    expect(tidy.frontmatter).toMatchObject({ license: 'MIT', metadata: { version: '1.2', author: 'mcpkit' } });
    expect(readFileSync(join(FOLDER, 'tidy-notes/SKILL.md'), 'utf8')).toContain('version: "1.2"');
  });

  it(era === 'modern' ? 'carries the cache hints on 2026-07-28' : 'carries no cache hints on the legacy era', () => {
    const listing = mcpkit.listing as { ttlMs?: number; cacheScope?: string };
    expect([listing.ttlMs, listing.cacheScope]).toEqual(era === 'modern' ? [60_000, 'public'] : [undefined, undefined]);
  });
});
