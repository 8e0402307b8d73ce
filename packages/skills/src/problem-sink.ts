import type { Logger } from '@mcpkit/core';
import type { SkillProblem } from './types';

/** Where problems go: `onProblem`, else the app's logger once attached, else a process warning. */
export class ProblemSink {
  logger: Logger | undefined;
  constructor(private readonly onProblem: ((problem: SkillProblem) => void) | undefined) {}
  send(problem: SkillProblem): void {
    if (this.onProblem) this.onProblem(problem);
    else if (this.logger) this.logger.warn({ skill: problem.path }, problem.message);
    else process.emitWarning(`${problem.path}: ${problem.message}`, 'SkillWarning');
  }
}
