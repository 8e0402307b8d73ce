import type { Logger } from '@mcpkit/core';
import type { SkillProblem } from './types';

// Problems found before the app is built (loadSkills) wait for its logger; past this many, the oldest go.
const MAX_PENDING = 100;

/** Where problems go: `onProblem`, else the app's logger (those found before it exists are kept until then). */
export class ProblemSink {
  private logger: Logger | undefined;
  private readonly pending: SkillProblem[] = [];

  constructor(private readonly onProblem: ((problem: SkillProblem) => void) | undefined) {}

  /** The app's logger: what waited is written now. */
  attach(logger: Logger): void {
    this.logger = logger;
    for (const problem of this.pending.splice(0)) this.send(problem);
  }

  send(problem: SkillProblem): void {
    if (this.onProblem) this.onProblem(problem);
    else if (this.logger) this.logger.warn({ skill: problem.path }, problem.message);
    else if (this.pending.push(problem) > MAX_PENDING) this.pending.shift();
  }
}
