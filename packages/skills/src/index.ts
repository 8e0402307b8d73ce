export { loadSkills, SkillsExtension, SKILLS_EXTENSION, type SkillsOptions, type SkillChanges } from './skills-extension';
export type { SkillFrontmatter } from './frontmatter';
export type { Skill, SkillResource, DirectoryChild, SkillProblem } from './types';
