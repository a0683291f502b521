/**
 * The browser the docs-page test drives, found or set up by the test command itself:
 * CHROMIUM_PATH when set; else a Chromium or Chrome installed on the machine; else, as root on
 * Debian or Ubuntu, Debian's `chromium` installed with apt-get; else one message naming what to
 * install. Never a silent skip: the docs-page test fails with that message.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export type ChromiumLookup = { path: string } | { missing: string };

const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];
const MAC_APPS = ['/Applications/Chromium.app/Contents/MacOS/Chromium', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'];

export const INSTALL_HINT =
  'the docs-page tests (test/e2e.test.ts, test/e2e-try.test.ts) need Chromium or Chrome: install it (Debian/Ubuntu: `sudo apt-get install chromium`; ' +
  'macOS: `brew install --cask chromium`) or set CHROMIUM_PATH to a Chromium or Chrome executable';

export interface Machine {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  isRoot: boolean;
  executable(path: string): boolean;
  /** runs a command, throwing when it fails */
  run(command: string, args: string[], env: NodeJS.ProcessEnv): void;
  log(message: string): void;
}

const isExecutable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

export const thisMachine: Machine = {
  env: process.env,
  platform: process.platform,
  isRoot: process.getuid?.() === 0,
  executable: isExecutable,
  run: (command, args, env) => void execFileSync(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] }),
  log: (m) => console.log(m),
};

function installed(m: Machine): string | null {
  const dirs = (m.env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const name of NAMES) for (const dir of ['/usr/bin', ...dirs]) if (m.executable(join(dir, name))) return join(dir, name);
  if (m.platform === 'darwin') for (const app of MAC_APPS) if (m.executable(app)) return app;
  return null;
}

export function findChromium(m: Machine = thisMachine): ChromiumLookup {
  const given = m.env.CHROMIUM_PATH;
  if (given) return m.executable(given) ? { path: given } : { missing: `CHROMIUM_PATH=${given} is not an executable file; ${INSTALL_HINT}` };
  const found = installed(m);
  if (found) return { path: found };
  if (m.platform === 'linux' && m.isRoot && m.executable('/usr/bin/apt-get')) {
    m.log("[setup] no Chromium on this machine: installing Debian's chromium with apt-get (once; about a minute)");
    const env = { ...m.env, DEBIAN_FRONTEND: 'noninteractive' };
    try {
      // wait for another apt run rather than fail on its lock
      m.run('apt-get', ['-qq', '-o', 'DPkg::Lock::Timeout=300', 'update'], env);
      m.run('apt-get', ['-y', '-qq', '-o', 'DPkg::Lock::Timeout=300', 'install', 'chromium'], env);
    } catch (e) {
      const stderr = String((e as { stderr?: Buffer }).stderr ?? (e as Error).message)
        .trim()
        .split('\n')
        .at(-1);
      return { missing: `apt-get install chromium failed (${stderr}); ${INSTALL_HINT}` };
    }
    const after = installed(m);
    if (after) return { path: after };
  }
  return { missing: INSTALL_HINT };
}
