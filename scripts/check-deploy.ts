/**
 * `npm run check:deploy -- https://<site>`: the checks of a real deploy that no offline tool
 * settles (netlify/deploy-checks.ts), printed one per line as passed, failed or skipped with
 * what was seen. Exits 0 when every check it could run passed, 1 when one failed, 2 on misuse.
 */
import { runChecks, type CheckResult } from '../netlify/deploy-checks.ts';

const MARK: Record<CheckResult['verdict'], string> = { passed: 'PASS', failed: 'FAIL', skipped: 'SKIP' };

async function main(args: string[]): Promise<number> {
  const target = args.find((a) => !a.startsWith('-'));
  if (!target || !/^https?:\/\/[^/]+\/?$/.test(target)) {
    console.error("usage: npm run check:deploy -- https://<site>   (the site's origin, no path)");
    return 2;
  }
  const origin = target.replace(/\/$/, '');
  console.log(`check:deploy ${origin}`);
  const { cdn, seen, results } = await runChecks(origin, (r) => console.log(`${MARK[r.verdict]}  ${r.name}\n      ${r.saw}`));
  console.log(`first answer: ${seen}`);
  console.log(cdn ? "Netlify's CDN answers: every check ran." : 'No CDN answers here (no Netlify Cache-Status header): checks that need one were skipped.');
  const count = (v: CheckResult['verdict']) => results.filter((r) => r.verdict === v).length;
  console.log(`${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped`);
  return count('failed') ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
