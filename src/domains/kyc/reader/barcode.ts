/** PDF417 detection and decoding with zxing-wasm; the wasm binary is read from node_modules, never fetched. */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import type { RgbaImage } from './image.ts';

const require = createRequire(import.meta.url);

let ready: Promise<void> | undefined;

/** Loads and instantiates the zxing reader module once (lazily, on first use). */
export function initBarcodeReader(): Promise<void> {
  ready ??= (async () => {
    const path = require.resolve('zxing-wasm/reader/zxing_reader.wasm');
    const bytes = await readFile(path);
    const wasmBinary = bytes.buffer.slice(
      bytes.byteOffset,
      bytes.byteOffset + bytes.byteLength,
    ) as ArrayBuffer;
    await prepareZXingModule({
      overrides: {
        wasmBinary,
        // Never let the module resolve a URL of its own.
        locateFile: (file: string) => file,
      },
      fireImmediately: true,
    });
  })().catch((err) => {
    ready = undefined;
    throw err;
  });
  return ready;
}

export interface DecodedBarcode {
  text: string;
  /** Raw bytes of the symbol, for payloads that are not valid text. */
  bytes: Uint8Array;
}

/** Finds PDF417 symbols in the image (any orientation, inverted too). Returns them best first. */
export async function readPdf417(img: RgbaImage): Promise<DecodedBarcode[]> {
  await initBarcodeReader();
  const data = new Uint8ClampedArray(img.data.buffer, img.data.byteOffset, img.data.byteLength);
  const results = await readBarcodes(
    { data, width: img.width, height: img.height, colorSpace: 'srgb' } as unknown as ImageData,
    {
      formats: ['PDF417'],
      tryHarder: true,
      tryRotate: true,
      tryInvert: true,
      tryDownscale: true,
      maxNumberOfSymbols: 4,
      textMode: 'Plain',
      characterSet: 'ISO8859_1',
    },
  );
  return results
    .filter((r) => r.isValid)
    .sort((a, b) => b.bytes.length - a.bytes.length)
    .map((r) => ({ text: r.text, bytes: r.bytes }));
}
