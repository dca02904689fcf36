// Entry of the SQLite checkpoint thread (db/index.ts). It copies the write-ahead log into the
// database file from its own connection, so that work (and its fsync) never runs inside a request's
// commit on the main thread. A passive checkpoint takes no lock writers wait on.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const db = new SQLite(workerData.path);
db.pragma('busy_timeout = 5000');
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or locked: the next tick tries again, and the writer's own auto-checkpoint is the backstop.
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
