import type { SkillFrontmatter } from './frontmatter';

/** A file of a skill: its URI, the SHA-256 digest (`sha256:<hex>`) and the size of its bytes. */
export interface SkillResource {
  uri: string;
  digest: string;
  size: number;
}

/** A skill's entry, as `skills/list` and `skills/get` send it. */
export interface Skill {
  /** The URI of its `SKILL.md`. */
  uri: string;
  frontmatter: SkillFrontmatter;
  /** Every file of the skill, `SKILL.md` included, sorted by URI. */
  resources: SkillResource[];
}

/** A child of a directory resource, as `resources/directory/read` sends it. */
export interface DirectoryChild {
  uri: string;
  name: string;
  mimeType: string;
  size?: number;
}

/** A problem found while loading skills: the skill is skipped, and the problem logged. */
export interface SkillProblem {
  path: string;
  message: string;
}
