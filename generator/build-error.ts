/** A build that found bad documents (or a failed artifact): every problem, one a line. */
export class BuildError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`the build found ${problems.length} bad document(s):\n${problems.slice(0, 30).join('\n')}`);
    this.problems = problems;
    this.name = 'BuildError';
  }
}
