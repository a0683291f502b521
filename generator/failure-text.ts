/**
 * What a failed command prints: bad data and a failed build each say what was left as it was,
 * anything else (a failed download, a bad option) its own message. The CLI prints it, and so
 * does `npm run dev` when its build process fails to start.
 */
export async function failureText(e: unknown): Promise<string> {
  // the import and the build are loaded only when they run (pipeline.ts); so are their errors
  const { DataError } = await import('./import/tables.ts');
  const { BuildError } = await import('./build-error.ts');
  if (e instanceof DataError) return `The data set has problems; nothing was written.\n${e.message}`;
  if (e instanceof BuildError) return `The build failed; dist/ was left as it was.\n${e.message}`;
  return e instanceof Error ? e.message : String(e);
}
