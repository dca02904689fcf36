import { parentPort } from 'node:worker_threads';
import { checkFaceScan } from './face.ts';
import { readDocument } from './index.ts';
import type { ReaderTask } from './pool.ts';

/** Images arrive as Uint8Arrays (structured clone drops Buffer). */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** One task per message (pool.ts), answered with `{ result }` or `{ error }`. */
parentPort!.on('message', async (task: ReaderTask) => {
  try {
    const result =
      task.kind === 'read'
        ? await readDocument({ ...task.input, image: asBuffer(task.input.image) })
        : checkFaceScan(task.frames.map(asBuffer), task.limits);
    parentPort!.postMessage({ result });
  } catch (error) {
    parentPort!.postMessage({ error: (error as Error).message });
  }
});
