/**
 * A build that found bad documents (or a failed artifact): every problem, one a line, in
 * `problems`; its message shows a screenful of them. `cause`: what was thrown, when a problem
 * is an exception (problems.ts `causeOf`).
 */
import { screenful } from './problems.ts';

export class BuildError extends Error {
  readonly problems: string[];
  constructor(problems: string[], options?: ErrorOptions) {
    super(`the build found ${problems.length} bad document(s):\n${screenful(problems)}`, options);
    this.problems = problems;
    this.name = 'BuildError';
  }
}
