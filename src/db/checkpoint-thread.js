// Entry of the SQLite checkpoint thread (db/index.ts). It copies the write-ahead log into the
// database file from its own connection, so that work (and its fsync) never runs inside a request's
// commit on the main thread. A passive checkpoint takes no lock writers wait on. Once the log is
// long, it asks the main thread to pause writes, copies the rest, and lets them go on: the next
// commit then starts the log afresh.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const db = new SQLite(workerData.path);
db.pragma('busy_timeout = 5000');
/** Frames in the log and frames copied, or null when the checkpoint could not run. */
const checkpoint = () => {
  try {
    const [{ log, checkpointed }] = db.pragma('wal_checkpoint(PASSIVE)');
    return { log, checkpointed };
  } catch {
    // Busy or locked: the next tick tries again, and the writer's own auto-checkpoint is the backstop.
    return null;
  }
};
let awaitingPause = false;
const tick = () => {
  if (awaitingPause) return;
  const done = checkpoint();
  // `log` is the log as this checkpoint began; commits made while it copied are not counted in it.
  if (done && done.log >= workerData.restartPages) {
    // Copy what came while this one copied, so that the pause has the least left to copy.
    checkpoint();
    awaitingPause = true;
    parentPort.postMessage('pause');
  }
};
const timer = setInterval(tick, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message === 'paused') {
    checkpoint();
    awaitingPause = false;
    parentPort.postMessage('resume');
    return;
  }
  if (message !== 'close') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
