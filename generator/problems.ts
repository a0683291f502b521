/**
 * The problems a failed import or build gathers (a bad row, a bad document), as they are told:
 * a screenful on the terminal, every one in a file beside the output folder past that (the
 * command line writes it: failure-text.ts), and the exceptions among them kept as a `cause`.
 */

/** How many problems a message shows. */
export const SCREENFUL = 30;

/** The first problems, a screenful, and how many more there are. */
export function screenful(lines: readonly string[]): string {
  const shown = lines.slice(0, SCREENFUL).join('\n');
  return lines.length > SCREENFUL ? `${shown}\n… and ${lines.length - SCREENFUL} more` : shown;
}

/**
 * The `cause` of an error that gathers problems, from the exceptions among them: none, the one,
 * or an AggregateError of them all. As an ErrorOptions, so that none adds no `cause` at all.
 */
export function causeOf(thrown: readonly unknown[]): ErrorOptions | undefined {
  if (thrown.length === 0) return undefined;
  return { cause: thrown.length === 1 ? thrown[0] : new AggregateError(thrown, `${thrown.length} exceptions`) };
}
