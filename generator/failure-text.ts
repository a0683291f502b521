/**
 * What a failed command prints: bad data and a failed build each say what was left as it was,
 * anything else (a failed download, a bad option) its own message; asked, the stack after it,
 * with its causes. The CLI prints it, and so does `npm run dev` when its build process fails to
 * start. More problems than a screenful are written, every one, to a file beside the output
 * folder, which the text names: not inside it, as a failed build leaves the output as it was.
 */
import { writeFileSync } from 'node:fs';
import { stackWithCauses } from '../contract/error-text.ts';
import { SCREENFUL } from './problems.ts';

export interface FailureOptions {
  /** where every problem goes when there are more than a screenful (`problemsFileOf`); none: nowhere */
  problemsFile?: string;
  /** the stack after the message, with its causes (`--verbose`, DEBUG=1) */
  verbose?: boolean;
}

/** The file a failure beside the output folder `outDir` lists its problems in: `dist.problems.txt`. */
export const problemsFileOf = (outDir: string): string => `${outDir}.problems.txt`;

/** Whether DEBUG asks for stacks: set, and not `0` or `false`. */
export const debugAsked = (env: NodeJS.ProcessEnv = process.env): boolean => env.DEBUG !== undefined && !['', '0', 'false'].includes(env.DEBUG);

export async function failureText(e: unknown, options: FailureOptions = {}): Promise<string> {
  const text = await readableText(e, options.problemsFile);
  return options.verbose ? `${text}\n\n${stackWithCauses(e)}` : text;
}

async function readableText(e: unknown, problemsFile: string | undefined): Promise<string> {
  // the import and the build are loaded only when they run (pipeline.ts); so are their errors
  const { DataError, problemLine } = await import('./import/tables.ts');
  const { BuildError } = await import('./build-error.ts');
  if (e instanceof DataError) return `The data set has problems; nothing was written.\n${e.message}${listed(e.problems.map(problemLine), problemsFile)}`;
  if (e instanceof BuildError) return `The build failed; dist/ was left as it was.\n${e.message}${listed(e.problems, problemsFile)}`;
  return e instanceof Error ? e.message : String(e);
}

/** Past a screenful, every problem written to `file`, and the words that name it; nothing else. */
function listed(problems: readonly string[], file: string | undefined): string {
  if (file === undefined || problems.length <= SCREENFUL) return '';
  writeFileSync(file, `${problems.join('\n')}\n`);
  return `; all ${problems.length} are in ${file}`;
}
