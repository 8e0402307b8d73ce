import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestClient } from '@mcpkit/testing';
import { releaseApp } from '../examples/skills.example';

interface Entry {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: Array<{ uri: string; digest: string; size: number }>;
}

// docs/skills.md: the release-notes example, as a host sees it on both eras.
describe.each(['legacy', 'modern'] as const)('the skills example (%s era)', (era) => {
  it('lists the folder skill and the one declared in code, and every file reads as its digest says', async () => {
    const client = await TestClient.connect(releaseApp, { era });
    expect(client.server.capabilities.extensions).toMatchObject({ 'io.modelcontextprotocol/skills': { directoryRead: true } });
    const { skills } = await client.request<{ skills: Entry[] }>('skills/list', {});
    expect(skills.map((skill) => [skill.uri, skill.frontmatter.name])).toEqual([
      ['skill://commit-style/SKILL.md', 'commit-style'],
      ['skill://release-notes/SKILL.md', 'release-notes'],
    ]);
    for (const resource of skills.flatMap((skill) => skill.resources)) {
      const [content] = (await client.readResource(resource.uri)).contents as Array<{ text: string }>;
      const bytes = Buffer.from(content!.text, 'utf8');
      expect({ size: bytes.byteLength, digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}` }).toEqual({
        size: resource.size,
        digest: resource.digest,
      });
    }
    const notes = skills[1]!.resources.find((resource) => resource.uri.endsWith('templates/notes.md'))!;
    expect(notes.size).toBe(readFileSync(join(__dirname, '..', 'examples', 'skills', 'release-notes', 'templates', 'notes.md')).byteLength);
    await expect(client.request('skills/get', { uri: 'skill://nope/SKILL.md' })).rejects.toMatchObject({ code: -32602 });
  });
});
