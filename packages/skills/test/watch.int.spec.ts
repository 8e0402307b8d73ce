import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '@mcpkit/core';
import { TestClient } from '@mcpkit/testing';
import { loadSkills, type SkillProblem } from '@mcpkit/skills';

const skill = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill\n---\n`;
let root: string;
const stops: Array<() => void> = [];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'skills-watch-'));
  mkdirSync(join(root, 'first'));
  writeFileSync(join(root, 'first/SKILL.md'), skill('first'));
});
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  delete process.env.MCPKIT_DEV_CHILD;
  rmSync(root, { recursive: true, force: true });
});

/** Resolves once `test()` holds, checking on each turn of the event loop (the test's timeout bounds it). */
async function until(test: () => boolean): Promise<void> {
  while (!test()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe.each(['legacy', 'modern'] as const)('watching the folder (%s era)', (era) => {
  it('under mcpkit dev, a skill added to the folder reaches clients as resources/list_changed', async () => {
    process.env.MCPKIT_DEV_CHILD = '1';
    const skills = await loadSkills({ dir: root });
    stops.push(() => skills.close());
    const client = await TestClient.connect(createApp({ name: 'w', version: '1', providers: [], extensions: [skills] }), { era });
    const heard: unknown[] = [];
    // A 2026-07-28 client hears list changes on a subscriptions/listen stream.
    if (era === 'modern') await client.listen({ resourcesListChanged: true });
    mkdirSync(join(root, 'second'));
    writeFileSync(join(root, 'second/SKILL.md'), skill('second'));
    await until(() => skills.entries.length === 2 && client.notifications('notifications/resources/list_changed').length > 0);
    heard.push(...client.notifications('notifications/resources/list_changed'));
    expect(heard).toHaveLength(1);
    const listed = await client.request<{ skills: Array<{ uri: string }> }>('skills/list', {});
    expect(listed.skills.map((entry) => entry.uri)).toEqual(['skill://first/SKILL.md', 'skill://second/SKILL.md']);
  }, 10_000);
});

it('does not watch unless asked or under mcpkit dev', async () => {
  expect((await loadSkills({ dir: root })).watching).toBe(0);
  const asked = await loadSkills({ dir: root, watch: true });
  expect(asked.watching).toBe(1);
  asked.close();
  expect(asked.watching).toBe(0);
});

describe('a watch that fails', () => {
  afterEach(() => jest.restoreAllMocks());

  it('is reported and stopped when the watcher errors, without ending the process', async () => {
    const watcher = Object.assign(new EventEmitter(), { unref: () => watcher, close: jest.fn() });
    jest.spyOn(fs, 'watch').mockReturnValue(watcher as unknown as fs.FSWatcher);
    const problems: SkillProblem[] = [];
    const skills = await loadSkills({ dir: root, onProblem: (problem) => problems.push(problem) });
    skills.watch();
    // Without an 'error' listener, emit throws (in a real watcher: an uncaught exception).
    expect(() => watcher.emit('error', new Error('ENOSPC: System limit for number of file watchers reached'))).not.toThrow();
    expect(skills.watching).toBe(0);
    expect(watcher.close).toHaveBeenCalled();
    expect(problems).toEqual([expect.objectContaining({ message: expect.stringContaining('watch stopped: ENOSPC') })]);
  });

  it('is reported when it cannot start under watch: true, rather than rejecting unhandled', async () => {
    jest.spyOn(fs, 'watch').mockImplementation(() => {
      throw new Error('ENOSPC: System limit for number of file watchers reached');
    });
    const problems: SkillProblem[] = [];
    const skills = await loadSkills({ dir: root, watch: true, onProblem: (problem) => problems.push(problem) });
    expect(skills.watching).toBe(0);
    expect(problems).toEqual([expect.objectContaining({ message: expect.stringContaining('could not watch: ENOSPC') })]);
  });

  it('reloads while the folder keeps changing, at least every 10 delays, instead of putting it off for ever', async () => {
    let onChange: () => void = () => undefined;
    const watcher = Object.assign(new EventEmitter(), { unref: () => watcher, close: jest.fn() });
    jest.spyOn(fs, 'watch').mockImplementation(((_dir: string, _options: object, listener: () => void) => {
      onChange = listener;
      return watcher;
    }) as unknown as typeof fs.watch);
    const skills = await loadSkills({ dir: root });
    const reload = jest.spyOn(skills, 'reload').mockResolvedValue({ added: [], removed: [], changed: [], listChanged: false });
    jest.useFakeTimers();
    try {
      skills.watch(100);
      // A change every 50 ms for 2 s: each comes before the 100 ms delay is over.
      for (let tick = 0; tick < 40; tick++) {
        onChange();
        jest.advanceTimersByTime(50);
      }
      expect(reload.mock.calls.length).toBeGreaterThanOrEqual(2);
      skills.close();
    } finally {
      jest.useRealTimers();
    }
  });
});
