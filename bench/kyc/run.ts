/**
 * bench/kyc: how much the API slows down while it reads document photos and face scans. A probe
 * asks the authenticated `GET /api/v2` (platform bearer token) every 10 ms, first with nothing else
 * going on (idle), then while 4 clients each, back to back, upload a 12-megapixel phone photo of a
 * licence front and post a face scan of three Full HD camera frames (the largest a frame may be) to
 * the hosted page. Once with the reader on a worker thread (the default) and once on the API's own
 * thread (`KYC_READER_THREADS=0`), each server in its own process, on loopback.
 * Target: with reader threads, probe p99 under load below 3 × the idle p99 of the same run.
 * Beside it, what a loaded machine does not inflate: the CPU the API's own thread (the server's main
 * thread) spends per upload or face scan, in a last round of one each per client without probes.
 *
 *   node --import tsx bench/kyc/run.ts [--seconds 15] [--clients 4] [--only-threads]
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { generateLicenceFront, SAMPLE_US_LICENCE } from '../../src/domains/kyc/testdocs/index.ts';
import { CpuMeter, cpuLine, loadAverage, threadCpuMicros } from '../cpu.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '15' },
    clients: { type: 'string', default: '4' },
    'only-threads': { type: 'boolean', default: false },
  },
});
const seconds = Number(values.seconds);
const clients = Number(values.clients);
const CEILING = 3;

/** A licence front scaled to 4000 × 3000 and saved as a phone would (JPEG, quality 90). */
async function phonePhoto(): Promise<string> {
  const image = await loadImage(generateLicenceFront({ ...SAMPLE_US_LICENCE, country: 'US' }));
  const canvas = createCanvas(4000, 3000);
  canvas.getContext('2d').drawImage(image, 0, 0, 4000, 3000);
  return canvas.toBuffer('image/jpeg', 90).toString('base64');
}

/** Three 1920 × 1080 camera frames (the default KYC_FRAME_MAX_PIXELS) that differ, as a live camera's do. */
function cameraFrames(): string[] {
  return [0, 1, 2].map((f) => {
    const canvas = createCanvas(1920, 1080);
    const g = canvas.getContext('2d');
    const gradient = g.createLinearGradient(0, 0, 1920, 1080);
    gradient.addColorStop(0, '#6b4f3a');
    gradient.addColorStop(1, '#e8d2b0');
    g.fillStyle = gradient;
    g.fillRect(0, 0, 1920, 1080);
    g.fillStyle = '#3a2a20';
    g.beginPath();
    g.ellipse(960 + f * 40, 540 - f * 20, 300, 400, 0, 0, Math.PI * 2);
    g.fill();
    for (let i = 0; i < 400; i++) {
      g.fillStyle = `rgb(${(i * 37 + f * 11) % 256}, ${(i * 91) % 256}, ${(i * 53) % 256})`;
      g.fillRect((i * 97) % 1920, (i * 61) % 1080, 24, 24);
    }
    return canvas.toBuffer('image/jpeg', 85).toString('base64');
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Probe latencies (ms), sorted, until `until()` says stop. */
async function probe(url: string, token: string, until: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  while (!until()) {
    const started = performance.now();
    const response = await fetch(`${url}/api/v2`, { headers: { authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`probe: ${response.status}`);
    latencies.push(performance.now() - started);
    await sleep(10);
  }
  return latencies.sort((a, b) => a - b);
}

async function measure(threads: string, photo: string, frames: string[]) {
  const server = spawn(
    process.execPath,
    ['--import', 'tsx', new URL('./server.ts', import.meta.url).pathname],
    {
      env: { ...process.env, KYC_READER_THREADS: threads, BENCH_CLIENTS: String(clients) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: server.stdout! }).once('line', resolve);
    server.once('exit', (code) => reject(new Error(`the bench server exited (${code}) before serving`)));
  });
  const { url, token, userIds, sessions } = JSON.parse(line) as {
    url: string;
    token: string;
    userIds: string[];
    sessions: { session: string; cookie: string }[];
  };
  const post = async (path: string, body: unknown, expected: number, headers: Record<string, string>) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== expected) throw new Error(`${path}: ${response.status} ${text}`);
  };
  // Each client uploads for its own user (two uploads for one user would race for its verification).
  const upload = (userId: string) =>
    post(
      '/api/v2/kyc/documents/front',
      {
        user_id: userId,
        image: photo,
        mime_type: 'image/jpeg',
        document_type: 'drivers_license',
        issuing_country: 'US',
      },
      200,
      { authorization: `Bearer ${token}` },
    );
  // The frames are checked in full (and pass); then a malformed date refuses the submit, so the page
  // stays at requires_verification and the next scan does the same work.
  const scan = ({ session, cookie }: { session: string; cookie: string }) =>
    post('/kyc/verify/submit', { session, fields: { date_of_birth: 'not a date' }, frames }, 400, { cookie });
  // The server goes with the run, however it ends (a failed request would otherwise leave it serving).
  try {
    await upload(userIds[0]!); // warm up: reader thread, OCR data
    await scan(sessions[0]!);

    const idleEnd = Date.now() + seconds * 1000;
    const idleCpu = new CpuMeter(server.pid);
    const idle = await idleCpu.round(
      () => probe(url, token, () => Date.now() > idleEnd),
      (latencies) => latencies.length,
    );

    const end = Date.now() + seconds * 1000;
    let uploads = 0;
    let scans = 0;
    // Half the clients start with a face scan, so that both kinds of work overlap from the start.
    const client = async (i: number) => {
      for (let turn = i % 2; Date.now() < end; turn++) {
        if (turn % 2 === 0) {
          await upload(userIds[i]!);
          uploads++;
        } else {
          await scan(sessions[i]!);
          scans++;
        }
      }
    };
    // The server's CPU under load, per document read or face scan checked (the probes' share is small).
    const busyCpu = new CpuMeter(server.pid);
    const [busy] = await busyCpu.round(
      () => Promise.all([probe(url, token, () => Date.now() > end), ...userIds.map((_, i) => client(i))]),
      () => uploads + scans,
    );

    // Then each client uploads and scans once more, without probes: all the API thread's CPU meanwhile
    // is theirs (taking the probes' share out of the round above leaves mostly noise).
    const apiThreadBefore = threadCpuMicros(server.pid!);
    await Promise.all(userIds.map((userId, i) => upload(userId).then(() => scan(sessions[i]!))));
    const apiThreadPerUpload = (threadCpuMicros(server.pid!) - apiThreadBefore) / (2 * userIds.length);
    return {
      idle,
      busy,
      uploads: uploads / seconds,
      scans: scans / seconds,
      idleCpu,
      busyCpu,
      apiThreadPerUpload,
    };
  } finally {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
  }
}

const photo = await phonePhoto();
const frames = cameraFrames();
console.log(
  `photo: 4000 × 3000 JPEG, ${(photo.length / 1024 / 1024).toFixed(1)} MiB as base64; frames: 3 × 1920 × 1080 JPEG, ${(frames.join('').length / 1024).toFixed(0)} KiB as base64`,
);
console.log(
  `${clients} clients, each uploading a photo then posting a face scan, back to back; ${seconds} s idle + ${seconds} s under load per run`,
);
const ms = (v: number) => `${v.toFixed(1)} ms`;
const figures = (l: number[]) =>
  `p50 ${ms(percentile(l, 50))}, p99 ${ms(percentile(l, 99))}, max ${ms(l.at(-1)!)} (${l.length} probes)`;
for (const threads of values['only-threads'] ? ['1'] : ['1', '0']) {
  const r = await measure(threads, photo, frames);
  const ratio = percentile(r.busy, 99) / percentile(r.idle, 99);
  console.log(`KYC_READER_THREADS=${threads}`);
  console.log(`  GET /api/v2, idle:        ${figures(r.idle)}`);
  console.log(`  GET /api/v2, under load:  ${figures(r.busy)}`);
  console.log(
    `  p99 under load / idle:    ${ratio.toFixed(2)} × (ceiling ${CEILING} ×${threads === '1' ? (ratio < CEILING ? ': met' : ': not met') : ''})`,
  );
  console.log(`  uploads read: ${r.uploads.toFixed(2)}/s, face scans checked: ${r.scans.toFixed(2)}/s`);
  console.log(cpuLine('GET /api/v2, idle', r.idleCpu));
  console.log(cpuLine('upload or face scan, under load (server process, all threads)', r.busyCpu));
  console.log(
    `  API thread CPU per upload or face scan (a round of ${2 * clients} without probes): ${(r.apiThreadPerUpload / 1000).toFixed(2)} ms`,
  );
  console.log(`  ${loadAverage()}`);
}
