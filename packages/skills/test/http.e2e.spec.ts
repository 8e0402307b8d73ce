import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { createApp } from '@mcpkit/core';
import { serveHttp, type HttpServer } from '@mcpkit/fastify';
import { loadSkills } from '@mcpkit/skills';

const FOLDER = join(__dirname, 'fixtures', 'skills');
const ERAS = { legacy: undefined, modern: { mode: { pin: '2026-07-28' } } } as const;

// Over Streamable HTTP (a real loopback socket), the official SkillsClient lists, gets, reads
// (verified) and reads directories on both eras: the extension's methods pass the HTTP layer's
// per-era rules (2026-07-28 headers, legacy sessions) as core's do.
describe.each(Object.keys(ERAS) as Array<keyof typeof ERAS>)('skills over HTTP (%s era)', (era) => {
  let server: HttpServer;
  beforeAll(async () => {
    const skills = await loadSkills({ dir: FOLDER });
    server = await serveHttp(createApp({ name: 'skills-http', version: '1.0.0', providers: [], extensions: [skills] }), { port: 0 });
  });
  afterAll(() => server.close());

  it('serves every skill, each file verified, and answers errors as JSON-RPC errors', async () => {
    const client = new Client({ name: 'http', version: '1.0.0' }, ERAS[era] ? { versionNegotiation: ERAS[era] } : {});
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      const skills = new SkillsClient(client);
      const { skills: listed } = await skills.list();
      expect(listed.map((skill) => skill.uri)).toEqual([
        'skill://acme/billing/refunds/SKILL.md',
        'skill://tidy-notes/SKILL.md',
        'skill://tidy-notes/archive/SKILL.md',
      ]);
      let read = 0;
      for (const skill of listed) {
        expect((await skills.get(skill.uri)).skill).toEqual(skill);
        for (const resource of skill.resources as Array<{ uri: string }>) {
          expect((await skills.read(skill, resource.uri)).verified).toBe(true);
          read += 1;
        }
      }
      // tidy-notes lists the SKILL.md of the skill nested in it, which lists it too.
      expect(read).toBe(8);
      expect((await skills.readDirectory('skill://tidy-notes/references')).resources.map((child) => child.name)).toEqual(['GUIDE.md', 'notes on style.md']);
      await expect(skills.get('skill://nope/SKILL.md')).rejects.toMatchObject({ code: -32602 });
    } finally {
      await client.close();
    }
  });
});
