/** Canvas helpers for the synthetic documents; fonts come from the dejavu-fonts-ttf npm package. */

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type Canvas, createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';

const require = createRequire(import.meta.url);

export const FONT_SANS = 'PurserDocSans';
export const FONT_SANS_BOLD = 'PurserDocSansBold';
export const FONT_MONO = 'PurserDocMono';

let fontsRegistered = false;

export function ensureFonts(): void {
  if (fontsRegistered) return;
  const dir = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
  const ok = [
    GlobalFonts.registerFromPath(join(dir, 'DejaVuSans.ttf'), FONT_SANS),
    GlobalFonts.registerFromPath(join(dir, 'DejaVuSans-Bold.ttf'), FONT_SANS_BOLD),
    GlobalFonts.registerFromPath(join(dir, 'DejaVuSansMono.ttf'), FONT_MONO),
  ];
  if (ok.some((k) => !k)) throw new Error('could not register the document fonts');
  fontsRegistered = true;
}

export function newCanvas(
  width: number,
  height: number,
  background: string,
): { canvas: Canvas; g: SKRSContext2D } {
  ensureFonts();
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = background;
  g.fillRect(0, 0, width, height);
  return { canvas, g };
}

export type OutputFormat = 'png' | 'jpeg';

export function encode(canvas: Canvas, format: OutputFormat = 'png'): Buffer {
  return format === 'jpeg' ? canvas.toBuffer('image/jpeg', 92) : canvas.toBuffer('image/png');
}

/** A faint guilloche-like pattern so that the card is not a flat colour. */
export function backgroundPattern(g: SKRSContext2D, width: number, height: number, color: string): void {
  g.save();
  g.strokeStyle = color;
  g.lineWidth = 1;
  for (let k = 0; k < 14; k++) {
    g.beginPath();
    for (let x = 0; x <= width; x += 8) {
      const y = height * 0.12 + k * (height / 16) + Math.sin((x + k * 37) / 55) * 9;
      if (x === 0) g.moveTo(x, y);
      else g.lineTo(x, y);
    }
    g.stroke();
  }
  g.restore();
}

/** A grey head-and-shoulders placeholder where a portrait would be. */
export function portrait(g: SKRSContext2D, x: number, y: number, w: number, h: number): void {
  g.save();
  g.fillStyle = '#c9ced6';
  g.fillRect(x, y, w, h);
  g.fillStyle = '#8a929e';
  g.beginPath();
  g.arc(x + w / 2, y + h * 0.38, w * 0.22, 0, Math.PI * 2);
  g.fill();
  g.beginPath();
  g.ellipse(x + w / 2, y + h, w * 0.42, h * 0.36, 0, Math.PI, 0);
  g.fill();
  g.strokeStyle = '#5b6470';
  g.lineWidth = 2;
  g.strokeRect(x, y, w, h);
  g.restore();
}

export function label(
  g: SKRSContext2D,
  text: string,
  x: number,
  y: number,
  size: number,
  bold = false,
): void {
  g.font = `${size}px ${bold ? FONT_SANS_BOLD : FONT_SANS}`;
  g.fillText(text, x, y);
}
