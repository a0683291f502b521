/** How the test command finds the docs-page test's browser (test/support/chromium.ts), on made-up machines. */
import { describe, expect, it } from 'vitest';
import { findChromium, INSTALL_HINT, type Machine } from './support/chromium.ts';

function machine(over: Partial<Machine> & { files?: string[]; installs?: string[] }): Machine & { ran: string[] } {
  const files = new Set(over.files ?? []);
  const ran: string[] = [];
  return {
    env: { PATH: '/usr/local/bin:/usr/bin' },
    platform: 'linux',
    isRoot: false,
    executable: (p) => files.has(p),
    run: (command, args) => {
      ran.push([command, ...args].join(' '));
      if (args.includes('install')) for (const f of over.installs ?? []) files.add(f);
    },
    log: () => {},
    ...over,
    ran,
  };
}

describe('finding Chromium', () => {
  it('takes CHROMIUM_PATH first, and says so when it is not an executable', () => {
    expect(findChromium(machine({ env: { CHROMIUM_PATH: '/opt/c/chrome' }, files: ['/opt/c/chrome', '/usr/bin/chromium'] }))).toEqual({
      path: '/opt/c/chrome',
    });
    const bad = findChromium(machine({ env: { CHROMIUM_PATH: '/nope' }, files: ['/usr/bin/chromium'] }));
    expect(bad).toEqual({ missing: `CHROMIUM_PATH=/nope is not an executable file; ${INSTALL_HINT}` });
  });

  it('uses a browser on the machine before installing anything', () => {
    const m = machine({ isRoot: true, files: ['/usr/bin/apt-get', '/usr/local/bin/google-chrome'] });
    expect(findChromium(m)).toEqual({ path: '/usr/local/bin/google-chrome' });
    expect(m.ran).toEqual([]);
  });

  it('installs Debian chromium with apt-get as root', () => {
    const m = machine({ isRoot: true, files: ['/usr/bin/apt-get'], installs: ['/usr/bin/chromium'] });
    expect(findChromium(m)).toEqual({ path: '/usr/bin/chromium' });
    expect(m.ran).toEqual(['apt-get -qq -o DPkg::Lock::Timeout=300 update', 'apt-get -y -qq -o DPkg::Lock::Timeout=300 install chromium']);
  });

  it('otherwise fails with one message naming what to install, never silently', () => {
    const m = machine({ isRoot: false, files: ['/usr/bin/apt-get'] });
    expect(findChromium(m)).toEqual({ missing: INSTALL_HINT });
    expect(m.ran).toEqual([]);
    expect(INSTALL_HINT).toMatch(/apt-get install chromium.*CHROMIUM_PATH/);
  });
});
