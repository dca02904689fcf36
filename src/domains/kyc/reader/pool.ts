import { Worker } from 'node:worker_threads';
import { checkFaceScan, type FaceScanProblem, refuseFramesBeforeDecoding } from './face.ts';
import type { ImageLimits } from './header.ts';
import { closeReader, readDocument, refuseBeforeDecoding } from './index.ts';
import type { ReadDocumentInput, ReadResult } from './types.ts';
import { readUploadBody, type UploadBody, type UploadBodyTask } from './upload.ts';

/**
 * All the KYC service's image work: document reads, face-scan checks, and the reading of the
 * uploads that carry the images. `close` releases whatever it runs on.
 */
export interface DocumentReader {
  read(input: ReadDocumentInput): Promise<ReadResult>;
  /** Checks the hosted page's face-scan frames (face.ts); null when the scan is usable. */
  checkFaceScan(frames: Buffer[], limits: ImageLimits): Promise<FaceScanProblem | null>;
  /** Parses an upload's JSON body and decodes its photos (upload.ts). */
  readUploadBody(task: UploadBodyTask): Promise<UploadBody>;
  close(): Promise<void>;
}

/**
 * Reading a photo decodes and scans megapixels of image in JavaScript and WebAssembly: 0.1 s for a
 * small scan, nearly 2 s for a 12-megapixel phone photo; a face scan decodes three camera frames.
 * On the API's event loop that would stall every other request meanwhile, so both run on `threads`
 * worker threads (0: on the calling thread, for debugging). What the header alone can refuse
 * (too large, not an image) is refused on the calling thread first, without taking a queue place.
 * A task that outlives `timeoutMs` loses its thread and fails. At most `queue` tasks wait for a
 * thread (each holds its images in memory); beyond that a task fails at once.
 *
 * Upload bodies are read on one more thread of their own (with threads), bounded the same way: a
 * body takes milliseconds, and behind a read it would wait seconds.
 */
export function documentReader(options: {
  threads: number;
  timeoutMs: number;
  queue: number;
}): DocumentReader {
  if (options.threads === 0)
    return {
      read: readDocument,
      checkFaceScan: async (frames, limits) => checkFaceScan(frames, limits),
      readUploadBody: async (task) => readUploadBody(task),
      close: closeReader,
    };
  return new ThreadedReader(options.threads, options.timeoutMs, options.queue);
}

/** One message to a reader thread (thread-main.ts). */
export type ReaderTask =
  | { kind: 'read'; input: ReadDocumentInput }
  | { kind: 'face_scan'; frames: Buffer[]; limits: ImageLimits }
  | { kind: 'upload_body'; task: UploadBodyTask };

interface Job {
  task: ReaderTask;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

type Reply = { result: unknown } | { error: string };

// Run from source (tsx), a thread must register the loader before it can import TypeScript
// (thread.js); compiled (dist/), the thread runs its module directly.
const THREAD_ENTRY = new URL(
  import.meta.url.endsWith('.ts') ? './thread.js' : './thread-main.js',
  import.meta.url,
);

class ThreadedReader implements DocumentReader {
  private readonly images: ThreadPool;
  private readonly uploads: ThreadPool;

  constructor(threads: number, timeoutMs: number, queue: number) {
    this.images = new ThreadPool(threads, timeoutMs, queue);
    this.uploads = new ThreadPool(1, timeoutMs, queue);
  }

  read(input: ReadDocumentInput): Promise<ReadResult> {
    const refused = refuseBeforeDecoding(input);
    if (refused) return Promise.resolve(refused);
    return this.images.run({ kind: 'read', input }) as Promise<ReadResult>;
  }

  checkFaceScan(frames: Buffer[], limits: ImageLimits): Promise<FaceScanProblem | null> {
    const refused = refuseFramesBeforeDecoding(frames, limits);
    if (refused) return Promise.resolve(refused);
    return this.images.run({ kind: 'face_scan', frames, limits }) as Promise<FaceScanProblem | null>;
  }

  async readUploadBody(task: UploadBodyTask): Promise<UploadBody> {
    const read = (await this.uploads.run({ kind: 'upload_body', task })) as UploadBody;
    if (!read.ok) return read;
    // The photos come as Uint8Arrays (structured clone drops Buffer), moved rather than copied.
    const photos: Record<string, Buffer> = {};
    for (const [key, bytes] of Object.entries(read.photos as Record<string, Uint8Array>))
      photos[key] = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return { ...read, photos };
  }

  async close(): Promise<void> {
    await Promise.all([this.images.close(), this.uploads.close()]);
  }
}

/** Worker threads running reader tasks (thread-main.ts), at most `maxQueue` waiting for one. */
class ThreadPool {
  private readonly idle: Worker[] = [];
  private readonly queue: Job[] = [];
  private readonly busy = new Map<Worker, { job: Job; timer: NodeJS.Timeout }>();
  private threads = 0;
  private closed = false;

  constructor(
    private readonly maxThreads: number,
    private readonly timeoutMs: number,
    private readonly maxQueue: number,
  ) {}

  run(task: ReaderTask): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the document reader is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ task, resolve, reject });
      this.dispatch();
      if (this.queue.length > this.maxQueue) {
        this.queue.pop();
        reject(new Error(`the document reader is busy: ${this.maxQueue} tasks are waiting`));
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the document reader is closed'));
    const all = [...this.idle.splice(0), ...this.busy.keys()];
    await Promise.all(all.map((worker) => worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const worker = this.idle.pop() ?? (this.threads < this.maxThreads ? this.spawn() : null);
      if (!worker) return;
      const job = this.queue.shift() as Job;
      // The thread is stuck (or the image pathological): end it; its exit fails the job.
      const timer = setTimeout(() => void worker.terminate(), this.timeoutMs);
      this.busy.set(worker, { job, timer });
      worker.postMessage(job.task);
    }
  }

  private spawn(): Worker {
    const worker = new Worker(THREAD_ENTRY);
    this.threads++;
    // Idle threads do not keep the process alive.
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const running = this.finish(worker);
      if (!running) return;
      if ('result' in reply) running.resolve(reply.result);
      else running.reject(new Error(`document reader: ${reply.error}`));
      if (!this.closed) this.idle.push(worker);
      this.dispatch();
    });
    let failure = '';
    worker.on('error', (error) => {
      failure = `: ${error.message}`;
    });
    worker.on('exit', (code) => {
      this.threads--;
      const index = this.idle.indexOf(worker);
      if (index >= 0) this.idle.splice(index, 1);
      this.finish(worker)?.reject(
        new Error(`document reader thread ended (${code}) before answering${failure}`),
      );
      if (!this.closed) this.dispatch();
    });
    return worker;
  }

  /** The job `worker` was running, now no longer running. */
  private finish(worker: Worker): Job | undefined {
    const running = this.busy.get(worker);
    if (!running) return undefined;
    clearTimeout(running.timer);
    this.busy.delete(worker);
    return running.job;
  }
}
