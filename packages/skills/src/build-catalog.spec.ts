import { buildCatalog, type CatalogBounds } from './build-catalog';
import { memoryStore, type SkillStore } from './store';
import type { SkillProblem } from './types';

const BOUNDS: CatalogBounds = { prefix: [], maxFilesPerSkill: 512, maxBytesPerSkill: 1 << 20, maxEntries: 1000 };
const skill = (name: string) => `---\nname: ${name}\ndescription: d\n---\n`;

/** A memory store where listing some folders fails, as a folder with no permission or gone since. */
function failingToList(files: Record<string, string>, broken: readonly string[]): SkillStore {
  const store = memoryStore(files);
  return {
    list: (dir) => (broken.includes(dir) ? Promise.reject(new Error(`EACCES: permission denied, scandir '/srv/skills/${dir}'`)) : store.list(dir)),
    read: (path, maxBytes) => store.read(path, maxBytes),
  };
}

describe('buildCatalog', () => {
  it('skips only the skill holding a folder that cannot be listed, and reports one outside any skill', async () => {
    const store = failingToList(
      { 'good/SKILL.md': skill('good'), 'locked/SKILL.md': skill('locked'), 'locked/sub/x.md': 'x', 'other/org/SKILL.md': skill('org') },
      ['locked/sub', 'other'],
    );
    const problems: SkillProblem[] = [];
    const catalog = await buildCatalog(store, BOUNDS, (problem) => problems.push(problem));
    expect(catalog.skills.map((entry) => entry.uri)).toEqual(['skill://good/SKILL.md']);
    expect(problems.map((problem) => problem.path).sort()).toEqual(['locked', 'other']);
    expect(problems.find((problem) => problem.path === 'locked')!.message).toContain('locked/sub could not be listed');
  });

  it('still fails when the root itself cannot be listed', async () => {
    await expect(buildCatalog(failingToList({ 'good/SKILL.md': skill('good') }, ['']), BOUNDS, () => undefined)).rejects.toThrow(/EACCES/);
  });

  it('blames maxBytesPerSkill for a file over the budget only, not for a file that cannot be read', async () => {
    const store = memoryStore({ 'big/SKILL.md': skill('big'), 'big/data.txt': 'x'.repeat(100), 'odd/SKILL.md': skill('odd'), 'odd/x.md': 'x' });
    const failing: SkillStore = {
      list: (dir) => store.list(dir),
      read: (path, maxBytes) => (path === 'odd/x.md' ? Promise.reject(new Error('EACCES: permission denied')) : store.read(path, maxBytes)),
    };
    const problems: SkillProblem[] = [];
    await buildCatalog(failing, { ...BOUNDS, maxBytesPerSkill: 64 }, (problem) => problems.push(problem));
    const byPath = Object.fromEntries(problems.map((problem) => [problem.path, problem.message]));
    expect(byPath.big).toContain('maxBytesPerSkill');
    expect(byPath.odd).toContain('odd/x.md could not be read: EACCES');
    expect(byPath.odd).not.toContain('maxBytesPerSkill');
  });

  it("gives each skill its own files, those of a nested skill included, and not a sibling's sharing its prefix", async () => {
    const store = memoryStore({ 'a/SKILL.md': skill('a'), 'a/b/SKILL.md': skill('b'), 'a/b/x.md': 'x', 'ab/SKILL.md': skill('ab'), 'ab/y.md': 'y' });
    const catalog = await buildCatalog(store, BOUNDS, () => undefined);
    const filesOf = (uri: string) => catalog.byUri.get(uri)!.resources.map((resource) => resource.uri);
    expect(filesOf('skill://a/SKILL.md')).toEqual(['skill://a/SKILL.md', 'skill://a/b/SKILL.md', 'skill://a/b/x.md']);
    expect(filesOf('skill://a/b/SKILL.md')).toEqual(['skill://a/b/SKILL.md', 'skill://a/b/x.md']);
    expect(filesOf('skill://ab/SKILL.md')).toEqual(['skill://ab/SKILL.md', 'skill://ab/y.md']);
    expect([...catalog.dirs.keys()]).toEqual(['skill://a', 'skill://a/b', 'skill://ab']);
  });
});
