/**
 * convertImageSet (src/media/image-set.ts): the full image and every
 * thumbnail from one decode, against the same Scrapy 2.8 oracle as
 * convertImage (images-oracle.json): the same sizes and checksums where
 * Scrapy keeps the bytes, pixels within the same bound of Pillow's.
 */
import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { convertImage, convertImageSet, ImageFormatError } from '../../src/media/image-conversion.js';
import { IMAGE_FIXTURES, readImageFixture } from '../helpers/image-site.js';
import { CLOSE, grid, gridDistance, oracle } from './fixtures/images-oracle.js';

const md5 = (bytes: Buffer): string => createHash('md5').update(bytes).digest('hex');
const converted = Object.entries(oracle.urls).filter(([, entry]) => entry.full !== undefined);

describe('convertImageSet against Scrapy 2.8 ImagesPipeline (images-oracle.json)', () => {
  it.each(converted)('makes %s and its thumbnails at Scrapy’s sizes, with its pixels', async (url, entry) => {
    const set = await convertImageSet(readImageFixture(url.slice('/images/'.length)), { thumbs: oracle.thumbs });
    expect([set.width, set.height, set.full.width, set.full.height]).toEqual([entry.full!.width, entry.full!.height, entry.full!.width, entry.full!.height]);
    if (entry.checksum === entry.source_md5) expect(md5(set.full.data)).toBe(entry.checksum);
    expect(gridDistance(await grid(set.full.data), entry.full!.grid)).toBeLessThan(CLOSE);
    expect(Object.keys(set.thumbs)).toEqual(Object.keys(oracle.thumbs));
    for (const [name, thumb] of Object.entries(set.thumbs)) {
      const expected = entry.thumbs![name]!;
      expect([name, thumb.width, thumb.height, thumb.extension]).toEqual([name, expected.width, expected.height, 'jpg']);
      expect(gridDistance(await grid(thumb.data), expected.grid)).toBeLessThan(CLOSE);
    }
  });
});

describe('convertImageSet', () => {
  it('asks check() before converting, and stops on its throw', async () => {
    const seen: unknown[] = [];
    const tooSmall = convertImageSet(readImageFixture('tiny.jpg'), {
      thumbs: { small: [50, 50] },
      check: (image) => {
        seen.push(image);
        throw new Error('Image too small (1x1 < 10x10)');
      },
    });
    await expect(tooSmall).rejects.toThrow('Image too small (1x1 < 10x10)');
    expect(seen).toEqual([{ width: 1, height: 1, format: 'jpeg' }]);
  });

  it('reads a path once and gives what convertImage gives for a kept format', async () => {
    const path = fileURLToPath(new URL('rgba.webp', IMAGE_FIXTURES));
    const set = await convertImageSet(path, { thumbs: { small: [50, 50], same: [300, 300] }, keepFormats: ['webp'] });
    expect(set.full.data.equals(readImageFixture('rgba.webp'))).toBe(true);
    expect(Object.values(set.thumbs).map((t) => [t.width, t.height, t.extension])).toEqual([[50, 33, 'webp'], [300, 200, 'webp']]);
    const alone = await convertImage(path, { size: [300, 300], keepFormats: ['webp'] });
    expect([alone.width, alone.height]).toEqual([300, 200]);
  });

  it('refuses broken bytes with ImageFormatError, without thumbnails asked or with', async () => {
    await expect(convertImageSet(readImageFixture('broken.jpg'))).rejects.toBeInstanceOf(ImageFormatError);
    const photo = readImageFixture('photo.jpg');
    await expect(convertImageSet(photo.subarray(0, photo.length >> 1), { thumbs: { small: [50, 50] } })).rejects.toBeInstanceOf(ImageFormatError);
  });
});
