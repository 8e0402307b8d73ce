import { join } from 'node:path';
import { createApp, Tool } from '@mcpkit/core';
import { skills } from '@mcpkit/skills';

export class Releases {
  @Tool({ description: 'Lists the changes merged since the last release' })
  changes(): string {
    return 'feat: dark mode\nfix: crash on empty input';
  }
}

// Every folder with a SKILL.md under docs/examples/skills is a skill (release-notes here), and
// one more is declared in code; both are served as skill:// resources.
export const releaseSkills = skills({
  dir: join(__dirname, '..', 'examples', 'skills'),
  files: {
    'commit-style/SKILL.md':
      '---\nname: commit-style\ndescription: Write commit messages the way this project does.\n---\n\nStart with feat:, fix: or docs:.\n',
  },
});

export const releaseApp = createApp({ name: 'releases', version: '1.0.0', providers: [Releases], extensions: [releaseSkills] });
