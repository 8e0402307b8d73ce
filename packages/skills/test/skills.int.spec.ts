import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createApp } from '@mcpkit/core';
import { RpcError, TestClient } from '@mcpkit/testing';
import { loadSkills, skills as skillsOf, type SkillProblem } from '@mcpkit/skills';

const REFUNDS = '---\nname: refunds\ndescription: Refunds\n---\nbody\n';
const TIDY = '---\nname: tidy\ndescription: Keep things tidy\nlicense: MIT\nmetadata:\n  version: "1.0"\n---\n\n# Tidy\n\nSee references/GUIDE.md.\n';
let root: string;
let outside: string;

function write(path: string, content: string | Buffer): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}
const digest = (content: string | Buffer) => `sha256:${createHash('sha256').update(content).digest('hex')}`;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'skills-'));
  outside = mkdtempSync(join(tmpdir(), 'outside-'));
  writeFileSync(join(outside, 'secret.txt'), 'secret');
  write('tidy/SKILL.md', TIDY);
  write('tidy/references/GUIDE.md', '# Guide\n');
  write('tidy/assets/logo.png', Buffer.from([0x89, 0x50, 0xff, 0xfe]));
  write('acme/billing/refunds/SKILL.md', REFUNDS);
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

async function serve(era: 'legacy' | 'modern', problems: SkillProblem[] = []) {
  const skills = await loadSkills({ dir: root, onProblem: (problem) => problems.push(problem) });
  const app = createApp({ name: 'skills', version: '1.0.0', providers: [], extensions: [skills] });
  return { skills, client: await TestClient.connect(app, { era }) };
}

describe.each(['legacy', 'modern'] as const)('skills on the %s era', (era) => {
  it('declares the extension with directoryRead, and resources', async () => {
    const { client } = await serve(era);
    expect(client.server.capabilities.extensions).toEqual({ 'io.modelcontextprotocol/skills': { directoryRead: true } });
    expect(client.server.capabilities.resources).toEqual({ listChanged: true });
  });

  it('lists every skill with its verbatim frontmatter and every file with size and digest', async () => {
    const { client } = await serve(era);
    const listed = await client.request<{ skills: unknown[]; ttlMs?: number }>('skills/list', {});
    expect(listed.skills).toEqual([
      {
        uri: 'skill://acme/billing/refunds/SKILL.md',
        frontmatter: { name: 'refunds', description: 'Refunds' },
        resources: [{ uri: 'skill://acme/billing/refunds/SKILL.md', digest: digest(REFUNDS), size: Buffer.byteLength(REFUNDS) }],
      },
      {
        uri: 'skill://tidy/SKILL.md',
        frontmatter: { name: 'tidy', description: 'Keep things tidy', license: 'MIT', metadata: { version: '1.0' } },
        resources: [
          { uri: 'skill://tidy/SKILL.md', digest: digest(TIDY), size: Buffer.byteLength(TIDY) },
          { uri: 'skill://tidy/assets/logo.png', digest: digest(Buffer.from([0x89, 0x50, 0xff, 0xfe])), size: 4 },
          { uri: 'skill://tidy/references/GUIDE.md', digest: digest('# Guide\n'), size: 8 },
        ].sort((a, b) => (a.uri < b.uri ? -1 : 1)),
      },
    ]);
    // 2026-07-28 results are cacheable (ttlMs and cacheScope required); legacy ones carry neither.
    expect(listed.ttlMs).toEqual(era === 'modern' ? 0 : undefined);
  });

  it('gets one skill, and refuses an unknown one with -32602', async () => {
    const { client } = await serve(era);
    const got = await client.request<{ skill: { uri: string } }>('skills/get', { uri: 'skill://tidy/SKILL.md' });
    expect(got.skill.uri).toBe('skill://tidy/SKILL.md');
    await expect(client.request('skills/get', { uri: 'skill://nope/SKILL.md' })).rejects.toMatchObject({ code: -32602 });
    await expect(client.request('skills/get', {})).rejects.toMatchObject({ code: -32602 });
  });

  it('reads files as resources whose bytes match the digests: text as text, bytes as a blob', async () => {
    const { client } = await serve(era);
    const text = await client.readResource('skill://tidy/SKILL.md');
    expect(text.contents).toEqual([{ uri: 'skill://tidy/SKILL.md', mimeType: 'text/markdown', text: TIDY }]);
    const blob = await client.readResource('skill://tidy/assets/logo.png');
    expect(blob.contents[0]).toMatchObject({ mimeType: 'image/png', blob: Buffer.from([0x89, 0x50, 0xff, 0xfe]).toString('base64') });
  });

  it('reads directories, and refuses a file or an unknown URI with -32602', async () => {
    const { client } = await serve(era);
    const dir = await client.request<{ resources: unknown[] }>('resources/directory/read', { uri: 'skill://tidy' });
    expect(dir.resources).toEqual([
      { uri: 'skill://tidy/SKILL.md', name: 'SKILL.md', mimeType: 'text/markdown', size: Buffer.byteLength(TIDY) },
      { uri: 'skill://tidy/assets', name: 'assets', mimeType: 'inode/directory' },
      { uri: 'skill://tidy/references', name: 'references', mimeType: 'inode/directory' },
    ]);
    await expect(client.request('resources/directory/read', { uri: 'skill://tidy/SKILL.md' })).rejects.toMatchObject({ code: -32602 });
    await expect(client.request('resources/directory/read', { uri: 'skill://acme' })).rejects.toMatchObject({ code: -32602 });
  });

  it('reads every file it lists, whatever its name (#, %, ?, spaces, non-ASCII)', async () => {
    for (const name of ['a#b.md', '50%.md', 'why?.md', 'a b.md', 'é.md', "it's(1).md"]) write(`tidy/odd/${name}`, name);
    write('my org/x/SKILL.md', '---\nname: x\ndescription: d\n---\n');
    const { skills, client } = await serve(era);
    const listed = skills.entries.flatMap((skill) => skill.resources);
    expect(listed.length).toBe(11);
    for (const { uri, digest: published } of listed) {
      const read = await client.readResource(uri);
      const [content] = read.contents as { uri: string; text?: string; blob?: string }[];
      expect(content!.uri).toBe(uri);
      expect(digest(content!.text ?? Buffer.from(content!.blob!, 'base64'))).toBe(published);
    }
    for (const skill of skills.entries) await expect(client.request('skills/get', { uri: skill.uri })).resolves.toBeDefined();
    // The template decodes the URI: a file is not reachable under a decoded spelling of its name.
    await expect(client.readResource('skill://tidy/odd/a#b.md')).rejects.toBeInstanceOf(RpcError);
  });

  it('refuses traversal: a URI that climbs out of the folder reads nothing', async () => {
    const { client } = await serve(era);
    for (const uri of ['skill://tidy/../../etc/passwd', 'skill://tidy/%2E%2E/%2E%2E/etc/passwd', `skill://tidy/..%2F..%2F${outside}/secret.txt`]) {
      await expect(client.readResource(uri)).rejects.toBeInstanceOf(RpcError);
    }
  });
});

describe('what loading refuses', () => {
  it('skips a skill with a symlink inside (a file or a folder leading out), and serves the rest', async () => {
    symlinkSync(join(outside, 'secret.txt'), join(root, 'tidy/references/secret.txt'));
    write('linked/SKILL.md', '---\nname: linked\ndescription: d\n---\n');
    symlinkSync(outside, join(root, 'linked/escape'));
    symlinkSync(outside, join(root, 'whole'));
    const problems: SkillProblem[] = [];
    const { skills, client } = await serve('modern', problems);
    expect(skills.entries.map((skill) => skill.uri)).toEqual(['skill://acme/billing/refunds/SKILL.md']);
    expect(problems.map((problem) => problem.path).sort()).toEqual(['linked', 'tidy']);
    await expect(client.readResource('skill://tidy/references/secret.txt')).rejects.toMatchObject({ code: -32602 });
    await expect(client.readResource('skill://whole/secret.txt')).rejects.toMatchObject({ code: -32602 });
  });

  it('does not serve a file swapped for a symlink after loading', async () => {
    const { client } = await serve('legacy');
    rmSync(join(root, 'tidy/references/GUIDE.md'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'tidy/references/GUIDE.md'));
    await expect(client.readResource('skill://tidy/references/GUIDE.md')).rejects.toMatchObject({ code: -32603 });
  });

  it('does not wait on a file swapped for a FIFO after loading: the read fails and the server goes on', async () => {
    const { client } = await serve('legacy');
    rmSync(join(root, 'tidy/references/GUIDE.md'));
    execFileSync('mkfifo', [join(root, 'tidy/references/GUIDE.md')]);
    // Opened without O_NONBLOCK, this read would hang until a writer came.
    await expect(client.readResource('skill://tidy/references/GUIDE.md')).rejects.toMatchObject({ code: -32603 });
    await expect(client.readResource('skill://tidy/SKILL.md')).resolves.toBeDefined();
  });

  it('skips a skill whose frontmatter is missing, malformed or names another folder', async () => {
    write('bad-yaml/SKILL.md', '---\nname: [unclosed\n---\n');
    write('no-front/SKILL.md', '# no frontmatter\n');
    write('other/SKILL.md', '---\nname: different\ndescription: d\n---\n');
    const problems: SkillProblem[] = [];
    const { skills } = await serve('legacy', problems);
    expect(skills.entries).toHaveLength(2);
    expect(problems.map((problem) => problem.path).sort()).toEqual(['bad-yaml', 'no-front', 'other']);
  });

  it('skips a skill whose frontmatter refers to itself, and lists the others', async () => {
    write('loop/SKILL.md', '---\nname: loop\ndescription: d\nmetadata: &self [ *self ]\n---\n');
    const problems: SkillProblem[] = [];
    const { client } = await serve('legacy', problems);
    const listed = await client.request<{ skills: { uri: string }[] }>('skills/list', {});
    expect(listed.skills.map((skill) => skill.uri)).toEqual(['skill://acme/billing/refunds/SKILL.md', 'skill://tidy/SKILL.md']);
    expect(problems).toEqual([expect.objectContaining({ path: 'loop', message: expect.stringContaining('refers to itself') })]);
  });

  it('skips a skill whose frontmatter expands past 64 KiB (aliases repeating a long value)', async () => {
    const aliases = Array.from({ length: 99 }, () => '  - *big\n').join('');
    write('expands/SKILL.md', `---\nname: expands\ndescription: d\nbig: &big ${'x'.repeat(10_000)}\nmetadata:\n${aliases}---\n`);
    const problems: SkillProblem[] = [];
    const { skills } = await serve('legacy', problems);
    expect(skills.entries.map((skill) => skill.frontmatter.name)).toEqual(['refunds', 'tidy']);
    expect(problems).toEqual([expect.objectContaining({ path: 'expands', message: expect.stringContaining('larger than 64 KiB') })]);
  });

  it('skips a skill over its byte or file bound without reading past it', async () => {
    write('big/SKILL.md', '---\nname: big\ndescription: d\n---\n');
    write('big/data.txt', 'x'.repeat(5000));
    const problems: SkillProblem[] = [];
    const skills = await loadSkills({ dir: root, maxBytesPerSkill: 1000, onProblem: (problem) => problems.push(problem) });
    expect(skills.entries.map((skill) => skill.frontmatter.name)).toEqual(['refunds', 'tidy']);
    expect(problems).toEqual([expect.objectContaining({ path: 'big', message: expect.stringContaining('maxBytesPerSkill') })]);
  });

  it('pages skills/list with an opaque cursor and refuses a forged one', async () => {
    const skills = await loadSkills({ dir: root, pageSize: 1 });
    const client = await TestClient.connect(createApp({ name: 's', version: '1', providers: [], extensions: [skills] }));
    const first = await client.request<{ skills: { uri: string }[]; nextCursor: string }>('skills/list', {});
    const second = await client.request<{ skills: { uri: string }[]; nextCursor?: string }>('skills/list', { cursor: first.nextCursor });
    expect([...first.skills, ...second.skills].map((skill) => skill.uri)).toEqual(['skill://acme/billing/refunds/SKILL.md', 'skill://tidy/SKILL.md']);
    expect(second.nextCursor).toBeUndefined();
    await expect(client.request('skills/list', { cursor: 'forged' })).rejects.toMatchObject({ code: -32602 });
  });

  it('serves skills declared in code beside the folder', async () => {
    const skills = await loadSkills({ dir: root, files: { 'inline/SKILL.md': '---\nname: inline\ndescription: In code\n---\n' } });
    expect(skills.entries.map((skill) => skill.frontmatter.name)).toEqual(['refunds', 'inline', 'tidy']);
  });
});

describe('skills(), at once', () => {
  it('serves once the folder is read: a request sent before waits for it', async () => {
    const client = await TestClient.connect(createApp({ name: 's', version: '1', providers: [], extensions: [skillsOf({ dir: root })] }));
    const listed = await client.request<{ skills: unknown[] }>('skills/list', {});
    expect(listed.skills).toHaveLength(2);
  });

  it('answers -32603 when the folder cannot be read, which loadSkills refuses at start-up', async () => {
    const missing = join(root, 'missing');
    const problems: SkillProblem[] = [];
    const extension = skillsOf({ dir: missing, onProblem: (problem) => problems.push(problem) });
    const client = await TestClient.connect(createApp({ name: 's', version: '1', providers: [], extensions: [extension] }));
    await expect(client.request('skills/list', {})).rejects.toMatchObject({ code: -32603 });
    await expect(client.readResource('skill://tidy/SKILL.md')).rejects.toMatchObject({ code: -32603 });
    expect(problems).toEqual([expect.objectContaining({ path: missing, message: expect.stringContaining('could not be loaded') })]);
    await expect(loadSkills({ dir: missing, onProblem: () => undefined })).rejects.toThrow(/ENOENT/);
  });

  it('serves once a reload succeeds after the first load failed', async () => {
    const missing = join(root, 'later');
    const extension = skillsOf({ dir: missing, onProblem: () => undefined });
    const client = await TestClient.connect(createApp({ name: 's', version: '1', providers: [], extensions: [extension] }));
    await expect(client.request('skills/list', {})).rejects.toMatchObject({ code: -32603 });
    mkdirSync(join(missing, 'late'), { recursive: true });
    writeFileSync(join(missing, 'late/SKILL.md'), '---\nname: late\ndescription: d\n---\n');
    expect(await extension.reload()).toMatchObject({ added: ['skill://late/SKILL.md'], listChanged: true });
    const listed = await client.request<{ skills: { uri: string }[] }>('skills/list', {});
    expect(listed.skills.map((skill) => skill.uri)).toEqual(['skill://late/SKILL.md']);
    await expect(client.readResource('skill://late/SKILL.md')).resolves.toBeDefined();
  });

  it('does not take a missing folder for an empty one when skills are declared in code too', async () => {
    const missing = join(root, 'missing');
    const files = { 'coded/SKILL.md': '---\nname: coded\ndescription: d\n---\n' };
    await expect(loadSkills({ dir: missing, files, onProblem: () => undefined })).rejects.toThrow(/ENOENT/);
    // A folder declared in code only is not on disk: that is no failure.
    const both = await loadSkills({ dir: root, files });
    expect(both.entries.map((skill) => skill.uri)).toContain('skill://coded/SKILL.md');
  });

  it('reports why a file of the folder failed to read when skills are declared in code too', async () => {
    const problems: SkillProblem[] = [];
    const extension = await loadSkills({
      dir: root,
      files: { 'coded/SKILL.md': '---\nname: coded\ndescription: d\n---\n' },
      onProblem: (problem) => problems.push(problem),
    });
    const client = await TestClient.connect(createApp({ name: 's', version: '1', providers: [], extensions: [extension] }));
    rmSync(join(root, 'tidy/references/GUIDE.md'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'tidy/references/GUIDE.md'));
    await expect(client.readResource('skill://tidy/references/GUIDE.md')).rejects.toMatchObject({ code: -32603 });
    expect(problems).toEqual([expect.objectContaining({ path: 'tidy/references/GUIDE.md', message: expect.stringContaining('ELOOP') })]);
  });

  it('refuses options out of range', () => {
    expect(() => skillsOf({})).toThrow(TypeError);
    expect(() => skillsOf({ dir: root, pageSize: 0 })).toThrow(RangeError);
    expect(() => skillsOf({ dir: root, prefix: 'a/../b' })).toThrow(RangeError);
  });
});

describe('reload', () => {
  it('tells legacy clients resources/list_changed when a skill comes, and not when nothing changed', async () => {
    const { skills, client } = await serve('legacy');
    expect(await skills.reload()).toEqual({ added: [], removed: [], changed: [], listChanged: false });
    write('fresh/SKILL.md', '---\nname: fresh\ndescription: New\n---\n');
    expect(await skills.reload()).toMatchObject({ added: ['skill://fresh/SKILL.md'], listChanged: true });
    expect(client.notifications('notifications/resources/list_changed')).toHaveLength(1);
    const listed = await client.request<{ skills: unknown[] }>('skills/list', {});
    expect(listed.skills).toHaveLength(3);
  });

  it('tells the clients of every app it was given to, not only the last one built', async () => {
    const skills = await loadSkills({ dir: root });
    const first = await TestClient.connect(createApp({ name: 'one', version: '1', providers: [], extensions: [skills] }), { era: 'legacy' });
    const second = await TestClient.connect(createApp({ name: 'two', version: '1', providers: [], extensions: [skills] }), { era: 'legacy' });
    write('fresh/SKILL.md', '---\nname: fresh\ndescription: New\n---\n');
    await skills.reload();
    expect(first.notifications('notifications/resources/list_changed')).toHaveLength(1);
    expect(second.notifications('notifications/resources/list_changed')).toHaveLength(1);
  });

  it('reports a changed file without telling clients when the listing is the same', async () => {
    const { skills, client } = await serve('legacy');
    write('tidy/references/GUIDE.md', '# Guide, longer\n');
    expect(await skills.reload()).toEqual({ added: [], removed: [], changed: ['skill://tidy/SKILL.md'], listChanged: false });
    expect(client.notifications('notifications/resources/list_changed')).toHaveLength(0);
  });
});

describe('problems', () => {
  it('found by loadSkills before the app exists, go to the app logger once it does', async () => {
    write('bad/SKILL.md', '# no frontmatter\n');
    const skills = await loadSkills({ dir: root });
    const warned: unknown[] = [];
    const logger = { warn: (bindings: unknown, message: string) => warned.push([bindings, message]) };
    const base = createApp({ name: 'p', version: '1', providers: [] }).logger;
    createApp({ name: 'p', version: '1', providers: [], extensions: [skills], logger: Object.assign(Object.create(base), logger) });
    expect(warned).toEqual([[{ skill: 'bad' }, expect.stringContaining('YAML frontmatter')]]);
  });
});
