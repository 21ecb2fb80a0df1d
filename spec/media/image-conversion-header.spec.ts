/**
 * src/media/image-header.ts reads JPEG and 8-bit RGB(A) PNG headers in
 * JavaScript instead of asking sharp: it must say what sharp says, and
 * leave everything else to sharp.
 */
import { describe, expect, it } from '@jest/globals';
import { createRequire } from 'node:module';
import { parseImageHeader } from '../../src/media/image-header.js';
import { imageFixtureNames, readImageFixture } from '../helpers/image-site.js';

const sharp = createRequire(import.meta.url)('sharp') as (typeof import('sharp'))['default'];

async function sharpHeader(bytes: Buffer) {
  const m = await sharp(bytes).metadata();
  return { format: m.format, width: m.width, height: m.height, space: m.space, channels: m.channels, hasAlpha: m.hasAlpha, isPalette: m.isPalette };
}

const picture = () => sharp({ create: { width: 300, height: 200, channels: 4, background: { r: 10, g: 200, b: 30, alpha: 0.5 } } });

describe('parseImageHeader', () => {
  it('agrees with sharp on every fixture it reads, and reads the JPEGs and RGB(A) PNGs', async () => {
    const read: string[] = [];
    for (const name of imageFixtureNames()) {
      const bytes = readImageFixture(name);
      const parsed = parseImageHeader(bytes);
      if (parsed === undefined) continue;
      read.push(name);
      expect([name, parsed]).toEqual([name, await sharpHeader(bytes)]);
    }
    expect(read).toEqual(['cmyk.jpg', 'gray.jpg', 'photo.jpg', 'portrait.jpg', 'rgb.png', 'rgba.png', 'tiny.jpg']);
  });

  it('agrees with sharp on progressive, EXIF-tagged and grey JPEGs and on RGB/RGBA PNGs', async () => {
    const variants = [
      await picture().flatten().jpeg({ progressive: true }).toBuffer(),
      await picture().flatten().withMetadata({ orientation: 6 }).jpeg().toBuffer(),
      await picture().flatten().greyscale().jpeg().toBuffer(),
      await picture().png().toBuffer(),
      await picture().flatten().png().toBuffer(),
    ];
    for (const bytes of variants) expect(parseImageHeader(bytes)).toEqual(await sharpHeader(bytes));
  });

  it('leaves 16-bit, grey, palette and tRNS PNGs, GIF, WebP and other bytes to sharp', async () => {
    const others = [
      await picture().png({ palette: true }).toBuffer(),
      await sharp(Buffer.alloc(100 * 80, 128), { raw: { width: 100, height: 80, channels: 1 } }).toColourspace('b-w').png().toBuffer(),
      await picture().toColourspace('rgb16').png().toBuffer(),
      readImageFixture('palette.png'),
      readImageFixture('palette.gif'),
      readImageFixture('rgba.webp'),
      readImageFixture('broken.jpg'),
      Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 0]),
      Buffer.from([0xff, 0xd8, 0xff]),
    ];
    expect(others.map((bytes) => parseImageHeader(bytes))).toEqual(others.map(() => undefined));
  });
});
