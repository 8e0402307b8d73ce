export { skills, loadSkills, type SkillsOptions } from './load-skills';
export { SkillsExtension, SKILLS_EXTENSION, type SkillChanges } from './skills-extension';
export type { SkillFrontmatter } from './frontmatter';
export type { Skill, SkillResource, DirectoryChild, SkillProblem } from './types';
