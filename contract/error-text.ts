/**
 * How an error reads for the one who mends it: its stack, then each cause's, as far down as the
 * chain goes (a wrapped error keeps what it wraps as `cause`), and each error an AggregateError
 * holds. Pure, and free of Node's `util.inspect`, so the edge function's log (Deno) reads as the
 * preview's terminal and the command line do.
 */

/** How deep a chain is followed: a cause that leads back to itself ends sooner. */
const MAX_DEPTH = 10;
/** How many of an AggregateError's errors are shown; the rest are counted. */
const MAX_GATHERED = 5;

/** The error's stack, with its name and message; a thrown value that is no Error as it reads. */
const ownStack = (error: unknown): string => (error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error));

/** Every line of `text`, indented by two spaces more. */
const indented = (text: string): string => text.replace(/^/gm, '  ');

/** `error`'s stack, then `caused by:` and each cause's stack in turn. */
export function stackWithCauses(error: unknown): string {
  return chainText(error, new Set(), 0);
}

function chainText(error: unknown, seen: Set<unknown>, depth: number): string {
  seen.add(error);
  const parts = [ownStack(error)];
  if (error instanceof AggregateError) parts.push(...gatheredText(error.errors, seen, depth));
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause === undefined) return parts.join('\n');
  if (seen.has(cause) || depth + 1 >= MAX_DEPTH) parts.push('caused by: (the chain goes on; not shown)');
  else parts.push(`caused by: ${chainText(cause, seen, depth + 1)}`);
  return parts.join('\n');
}

/** An AggregateError's errors, each with its causes, indented below it. */
function gatheredText(errors: readonly unknown[], seen: Set<unknown>, depth: number): string[] {
  const shown = errors
    .slice(0, MAX_GATHERED)
    .map((e, i) => indented(`[${i + 1} of ${errors.length}] ${depth + 1 >= MAX_DEPTH || seen.has(e) ? ownStack(e) : chainText(e, seen, depth + 1)}`));
  if (errors.length > MAX_GATHERED) shown.push(indented(`… and ${errors.length - MAX_GATHERED} more`));
  return shown;
}

/**
 * The message of `error` and of each cause it does not already say, joined: what one line of a
 * report can say of it (a download's `fetch failed` says little without its cause's `ECONNREFUSED`).
 */
export function messageWithCauses(error: unknown): string {
  let text = messageOf(error);
  let e: unknown = error;
  for (let depth = 1; depth < MAX_DEPTH && e instanceof Error && e.cause !== undefined; depth++) {
    e = e.cause;
    const message = messageOf(e);
    if (!text.includes(message)) text += `: ${message}`;
  }
  return text;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
