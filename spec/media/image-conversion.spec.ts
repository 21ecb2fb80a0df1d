/**
 * convertImage and readImageSize beyond Scrapy (image-conversion-oracle.spec.ts
 * holds the comparison with Scrapy 2.8): formats kept as they come, file
 * paths as input, animated images, what is refused; and the image test site
 * (spec/helpers/image-site.ts) they and the pipelines are tested on.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertImage, ImageFormatError, readImageSize } from '../../src/media/image-conversion.js';
import { IMAGE_FIXTURES, readImageFixture, startImageSite, type ImageSite } from '../helpers/image-site.js';

const sharp = createRequire(import.meta.url)('sharp') as (typeof import('sharp'))['default'];

/** The decoded image's pixel at (x, y), as [R, G, B(, A)]. */
async function pixelAt(image: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [...data.subarray(at, at + info.channels)];
}

describe('convertImage', () => {
  it('keeps a listed format byte for byte when not thumbnailing, with its extension', async () => {
    const png = readImageFixture('rgba.png');
    const kept = await convertImage(png, { keepFormats: ['webp', 'png'] });
    expect(kept.data.equals(png)).toBe(true);
    expect([kept.width, kept.height, kept.extension]).toEqual([320, 240, 'png']);
    const notListed = await convertImage(readImageFixture('rgba.webp'), { keepFormats: ['png'] });
    expect([notListed.extension, (await readImageSize(notListed.data)).format]).toEqual(['jpg', 'jpeg']);
  });

  it('re-encodes a kept format’s thumbnail in that format, transparency kept', async () => {
    const thumb = await convertImage(readImageFixture('rgba.webp'), { size: [50, 50], keepFormats: ['webp'] });
    expect([thumb.width, thumb.height, thumb.extension]).toEqual([50, 33, 'webp']);
    expect(await readImageSize(thumb.data)).toEqual({ width: 50, height: 33, format: 'webp' });
    // the fixture's border is fully transparent
    expect((await pixelAt(thumb.data, 0, 0))[3]).toBe(0);
  });

  it('pastes a transparent PNG on white for JPEG, as Scrapy does', async () => {
    const jpeg = await convertImage(readImageFixture('rgba.png'));
    for (const channel of await pixelAt(jpeg.data, 2, 2)) expect(channel).toBeGreaterThan(250);
  });

  it('keeps AVIF when asked ("jpg" and format names in any case are accepted)', async () => {
    const avif = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#3366cc' } }).avif().toBuffer();
    expect(await readImageSize(avif)).toEqual({ width: 120, height: 80, format: 'avif' });
    const thumb = await convertImage(avif, { size: [60, 60], keepFormats: ['AVIF', 'jpg'] });
    expect([thumb.width, thumb.height, thumb.extension, (await readImageSize(thumb.data)).format]).toEqual([60, 40, 'avif', 'avif']);
    const asJpeg = await convertImage(avif);
    expect([asJpeg.extension, (await readImageSize(asJpeg.data)).format]).toEqual(['jpg', 'jpeg']);
  });

  it('takes the first frame of an animated GIF', async () => {
    const first = await convertImage(readImageFixture('animated.gif'));
    expect([first.width, first.height]).toEqual([160, 100]);
    // frame 1 is the scene upright: its bottom-left corner is the dark end of the gradient, then frames rotate
    const [r, g] = await pixelAt(first.data, 3, 50);
    expect(r).toBeLessThan(40);
    expect(g).toBeGreaterThan(60);
  });

  it('reads a file path as well as bytes', async () => {
    const path = fileURLToPath(new URL('photo.jpg', IMAGE_FIXTURES));
    expect(await readImageSize(path)).toEqual({ width: 640, height: 480, format: 'jpeg' });
    const full = await convertImage(path);
    expect(full.data.equals(readImageFixture('photo.jpg'))).toBe(true);
    expect((await convertImage(path, { size: [100, 100] })).width).toBe(100);
  });

  it('refuses an SVG and a truncated JPEG with ImageFormatError', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    await expect(convertImage(svg)).rejects.toThrow('Cannot identify image (99 bytes): svg is not a raster image format');
    const photo = readImageFixture('photo.jpg');
    const truncated = photo.subarray(0, photo.length >> 1);
    const error = await convertImage(truncated, { size: [50, 50] }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ImageFormatError);
    expect((error as ImageFormatError).code).toBe('SEINE_IMAGE_FORMAT');
  });

  it('names a missing file in its error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seine-image-'));
    try {
      writeFileSync(join(dir, 'text.jpg'), 'hello');
      await expect(readImageSize(join(dir, 'text.jpg'))).rejects.toThrow(`Cannot identify image ${join(dir, 'text.jpg')}:`);
      await expect(readImageSize(join(dir, 'absent.jpg'))).rejects.toThrow(`Cannot identify image ${join(dir, 'absent.jpg')}: Input file is missing`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the image test site', () => {
  let site: ImageSite;
  beforeAll(async () => {
    site = await startImageSite();
  });
  afterAll(() => site.close());

  it('serves the fixtures, an empty body, a 404, a redirect, and lists them on its page', async () => {
    const photo = await fetch(site.url('/images/photo.jpg'));
    expect([photo.status, photo.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    expect(Buffer.from(await photo.arrayBuffer()).equals(readImageFixture('photo.jpg'))).toBe(true);
    expect((await fetch(site.url('/empty.jpg'))).headers.get('content-length')).toBe('0');
    expect((await fetch(site.url('/missing.jpg'))).status).toBe(404);
    const redirect = await fetch(site.url('/redirect/photo.jpg'), { redirect: 'manual' });
    expect([redirect.status, redirect.headers.get('location')]).toEqual([302, '/images/photo.jpg']);
    const page = await (await fetch(site.url('/'))).text();
    expect(page).toContain('<img src="/images/cmyk.jpg">');
    expect(page).toContain('<img src="/missing.jpg">');
    expect(site.hits('/images/photo.jpg')).toBe(1);
  });

  it('streams /big with the asked length', async () => {
    const big = await fetch(site.url('/big?bytes=300000'));
    const body = Buffer.from(await big.arrayBuffer());
    expect([big.headers.get('content-length'), body.length, body[65537]]).toEqual(['300000', 300000, 1]);
    expect(site.hits('/big?bytes=300000')).toBe(1);
  });

  it('drops the connection halfway through /truncated.jpg', async () => {
    await expect(fetch(site.url('/truncated.jpg')).then((response) => response.arrayBuffer())).rejects.toThrow();
  });
});
