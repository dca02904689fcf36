import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { ReaderTask } from './pool.ts';
import { readUploadBody } from './upload.ts';

/**
 * This thread yields the CPU to the API's: on a machine whose cores are all busy, a request waits
 * for a core no longer than the scheduler's slice, where at the same priority the threads reading
 * images (and the OCR thread each starts, which inherits the priority) would take their turns first.
 * On Linux a thread's nice value is its own; elsewhere it would be the whole process's.
 */
const BELOW_THE_API = 10;
if (process.platform === 'linux') setPriority(BELOW_THE_API);

/** Images arrive as Uint8Arrays (structured clone drops Buffer). */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

// The image modules (decoders, OCR, barcode reader) load with a thread's first image task: the
// thread that reads upload bodies never needs them.
const imageWork = async () => ({ ...(await import('./index.ts')), ...(await import('./face.ts')) });

async function perform(task: ReaderTask): Promise<unknown> {
  if (task.kind === 'upload_body') return readUploadBody(task.task);
  const { readDocument, checkFaceScan } = await imageWork();
  return task.kind === 'read'
    ? readDocument({ ...task.input, image: asBuffer(task.input.image) })
    : checkFaceScan(task.frames.map(asBuffer), task.limits);
}

/**
 * The buffers of a result this thread alone holds (a decoded photo): moved to the API's thread, not
 * copied. A small Buffer shares its memory with others (Node's pool) and is copied.
 */
function movable(result: unknown): ArrayBuffer[] {
  if (result === null || typeof result !== 'object' || !('photos' in result)) return [];
  return Object.values(result.photos as Record<string, Buffer>)
    .filter((bytes) => bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength)
    .map((bytes) => bytes.buffer as ArrayBuffer);
}

/** One task per message (pool.ts), answered with `{ result }` or `{ error }`. */
parentPort!.on('message', async (task: ReaderTask) => {
  try {
    const result = await perform(task);
    parentPort!.postMessage({ result }, movable(result));
  } catch (error) {
    parentPort!.postMessage({ error: (error as Error).message });
  }
});
