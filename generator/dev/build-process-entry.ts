/**
 * `npm run dev`'s build process (started by build-process.ts): opens the dev session (a full
 * build when needed, said as soon as it is there, then the planner) and runs each update the
 * serving process asks for.
 * Its log lines go to the serving process, or straight to the console they share.
 */
import { debugAsked, failureText, problemsFileOf } from '../failure-text.ts';
import { consoleLog, type Log } from '../pipeline.ts';
import type { FromBuildProcess, ToBuildProcess } from './build-process.ts';
import { openDevSession, type DevSession } from './session.ts';

const send = (message: FromBuildProcess): void => {
  process.send?.(message);
};

const relayed: Log = {
  info: (message) => send({ type: 'log', level: 'info', message }),
  warn: (message) => send({ type: 'log', level: 'warn', message }),
};

/** the session once open; none before, or when it failed to open */
let session: DevSession | null = null;
let closing: Promise<void> | null = null;

/** Closes the planner (it removes its spare copy of dist/) and exits, once however often asked. */
function closeAndExit(): Promise<void> {
  closing ??= (async () => {
    await session?.close();
    process.exit();
  })();
  return closing;
}

async function handle(message: ToBuildProcess): Promise<void> {
  if (message.type === 'open') {
    try {
      session = await openDevSession(message.config, message.console ? consoleLog : relayed, () => send({ type: 'built' }));
      send({ type: 'done' });
    } catch (e) {
      send({ type: 'failed', message: await failureText(e, { problemsFile: problemsFileOf(message.config.outDir), verbose: debugAsked() }) });
      process.exitCode = 1;
      process.disconnect();
    }
  } else if (message.type === 'update') {
    // a bad edit is the session's to report; anything thrown past that fails this update, not the process
    try {
      await session?.update();
      send({ type: 'done' });
    } catch (e) {
      send({ type: 'failed', message: await failureText(e, { verbose: debugAsked() }) });
    }
  } else await closeAndExit();
}

// Ctrl-C reaches the whole process group: the serving process closes this one on its way out
process.on('SIGINT', () => {});
// the serving process went without closing it (it crashed, or was killed)
process.on('disconnect', () => void closeAndExit());
process.on('message', (message: ToBuildProcess) => void handle(message));
