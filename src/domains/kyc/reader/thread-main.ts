import { parentPort } from 'node:worker_threads';
import { readDocument } from './index.ts';
import type { ReadDocumentInput } from './types.ts';

/** One read per message; the image arrives as a Uint8Array (structured clone drops Buffer). */
parentPort!.on('message', async (input: ReadDocumentInput) => {
  try {
    const image = Buffer.from(input.image.buffer, input.image.byteOffset, input.image.byteLength);
    parentPort!.postMessage({ result: await readDocument({ ...input, image }) });
  } catch (error) {
    parentPort!.postMessage({ error: (error as Error).message });
  }
});
