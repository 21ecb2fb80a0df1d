/**
 * convertImage against Scrapy 2.8's ImagesPipeline on Pillow, as recorded by
 * spec/media/fixtures/record-images-oracle.py in images-oracle.json from the
 * image test site: the same full and thumbnail sizes, the same bytes where
 * Scrapy keeps the download's (an RGB JPEG), and pixels within JPEG noise of
 * Pillow's elsewhere (JPEG encoders differ, so other bytes never match).
 */
import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { convertImage, ImageFormatError, readImageSize } from '../../src/media/image-conversion.js';
import { thumbnailSize } from '../../src/media/image-thumbnail-size.js';
import { readImageFixture } from '../helpers/image-site.js';
import { CLOSE, grid, gridDistance, oracle } from './fixtures/images-oracle.js';

const md5 = (bytes: Buffer): string => createHash('md5').update(bytes).digest('hex');
const converted = Object.entries(oracle.urls).filter(([, entry]) => entry.full !== undefined);

describe('convertImage against Scrapy 2.8 ImagesPipeline (images-oracle.json)', () => {
  it('records the fixtures the images were generated from', () => {
    for (const [url, entry] of converted) expect([url, md5(readImageFixture(url.slice('/images/'.length)))]).toEqual([url, entry.source_md5]);
  });

  it.each(converted)('stores %s at Scrapy’s size, with its pixels', async (url, entry) => {
    const bytes = readImageFixture(url.slice('/images/'.length));
    const full = await convertImage(bytes);
    expect([full.width, full.height, full.extension]).toEqual([entry.full!.width, entry.full!.height, 'jpg']);
    expect(gridDistance(await grid(full.data), entry.full!.grid)).toBeLessThan(CLOSE);
    for (const [name, box] of Object.entries(oracle.thumbs)) {
      const thumb = await convertImage(bytes, { size: box });
      const expected = entry.thumbs![name]!;
      expect([name, thumb.width, thumb.height]).toEqual([name, expected.width, expected.height]);
      expect(gridDistance(await grid(thumb.data), expected.grid)).toBeLessThan(CLOSE);
    }
  });

  it('keeps an RGB JPEG’s bytes as Scrapy does, so the checksum is the download’s', async () => {
    const kept = converted.filter(([, entry]) => entry.checksum === entry.source_md5).map(([url]) => url);
    expect(kept).toEqual(['/images/photo.jpg', '/images/portrait.jpg']);
    for (const url of kept) {
      const bytes = readImageFixture(url.slice('/images/'.length));
      expect(md5((await convertImage(bytes)).data)).toBe(oracle.urls[url]!.checksum);
    }
  });

  it('refuses what Scrapy fails to open: broken bytes and an empty body', async () => {
    expect(oracle.urls['/images/broken.jpg']!.failed![0]!.message).toContain('Error processing file');
    const error = await convertImage(readImageFixture('broken.jpg')).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ImageFormatError);
    expect((error as ImageFormatError).message).toBe(
      'Cannot identify image (68 bytes): Input buffer contains unsupported image format — the URL must serve a JPEG, PNG, WebP, GIF, AVIF or TIFF image',
    );
    expect(oracle.urls['/empty.jpg']!.failed![0]!.message).toContain('Empty file');
    await expect(readImageSize(Buffer.alloc(0))).rejects.toThrow('Cannot identify image (0 bytes): the body is empty');
  });

  it('reads the tiny image’s size, which Scrapy found below IMAGES_MIN_*', async () => {
    const [minWidth, minHeight] = oracle.min_size;
    expect(oracle.urls['/images/tiny.jpg']!.failed![0]!.message).toContain(`Image too small (1x1 < ${minWidth}x${minHeight})`);
    expect(await readImageSize(readImageFixture('tiny.jpg'))).toEqual({ width: 1, height: 1, format: 'jpeg' });
  });

  it('gives Pillow’s thumbnail size for every recorded (size, box)', () => {
    const sizes = oracle.thumbnail_sizes.map(([w, h, bw, bh]) => [w, h, bw, bh, ...(thumbnailSize(w, h, [bw, bh]) ?? [w, h])]);
    expect(sizes).toEqual(oracle.thumbnail_sizes);
  });
});
