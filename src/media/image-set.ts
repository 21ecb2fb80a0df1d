import { readFile } from 'node:fs/promises';
import type { Sharp } from 'sharp';
import type { ConvertedImage, ImageSize } from './image-conversion.js';
import { thumbnailSize } from './image-thumbnail-size.js';
import { asImageFormatError, encode, extensionOf, isKept, isPlainJpeg, readHeader, resize, rgbImage, sharpModule } from './image-sharp.js';

/**
 * The full image and all its thumbnails from one decode: what
 * ImagesPipeline stores for one download, as convertImage gives them one by
 * one (Scrapy's convert_image), for less CPU. The largest thumbnail is made
 * from the image (a JPEG shrinks while it decodes), the others from its
 * pixels. On bench:media's 12 pictures, one at a time in one process: 6.2
 * CPU ms an image, 7.1 without shrinking while decoding (Pillow 9.4 makes
 * the same outputs in 10.6), and the thumbnails stay within the oracle's
 * bound of Pillow's (spec/media/image-conversion-set.spec.ts): 0.1–0.6/255
 * from Pillow's on those pictures, with shrinking or without.
 */

export interface ConvertImageSetOptions {
  /** IMAGES_THUMBS: name → box. */
  thumbs?: Readonly<Record<string, readonly [number, number]>>;
  /** Formats kept as they come instead of becoming JPEG, e.g. ['webp', 'avif', 'png']. */
  keepFormats?: readonly string[];
  /** Sees the image's size and format before anything is converted; a throw stops there (IMAGES_MIN_*). */
  check?: (image: ImageSize & { format: string }) => void;
}

export interface ConvertedImageSet extends ImageSize {
  format: string;
  full: ConvertedImage;
  thumbs: Record<string, ConvertedImage>;
}

interface Pixels {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

async function pixelsOf(image: Sharp): Promise<Pixels> {
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

function fromPixels({ data, width, height, channels }: Pixels): Sharp {
  return sharpModule()(data, { raw: { width, height, channels } });
}

export async function convertImageSet(input: string | Buffer, options: ConvertImageSetOptions = {}): Promise<ConvertedImageSet> {
  const header = await readHeader(input);
  const { width, height, format } = header;
  options.check?.({ width, height, format });
  const kept = isKept(format, options.keepFormats);
  const extension = extensionOf(format, kept);
  // Read once: every output below starts from these bytes, not from the file again.
  const bytes = Buffer.isBuffer(input) ? input : await readFile(input);
  return asImageFormatError(input, async () => {
    const targets = Object.entries(options.thumbs ?? {}).map(([name, box]) => [name, thumbnailSize(width, height, box) ?? [width, height]] as const);
    const largest = targets.reduce<readonly [number, number] | undefined>((best, [, size]) => (best === undefined || size[0] * size[1] > best[0] * best[1] ? size : best), undefined);
    let full: ConvertedImage;
    let base: Pixels | undefined;
    if (kept || isPlainJpeg(header)) {
      full = { data: bytes, width, height, extension };
      if (largest !== undefined) {
        const image = kept ? sharpModule()(bytes) : await rgbImage(bytes, header);
        base = await pixelsOf(largest[0] === width && largest[1] === height ? image : resize(image, largest, { shrinkOnLoad: true }));
      }
    } else {
      const pixels = await pixelsOf(await rgbImage(bytes, header));
      full = { data: await encode(fromPixels(pixels), format, kept).toBuffer(), width, height, extension };
      if (largest !== undefined) base = largest[0] === width && largest[1] === height ? pixels : await pixelsOf(resize(fromPixels(pixels), largest));
    }
    const thumbs: Record<string, ConvertedImage> = {};
    await Promise.all(
      targets.map(async ([name, size]) => {
        const image = size[0] === base!.width && size[1] === base!.height ? fromPixels(base!) : resize(fromPixels(base!), size);
        const { data, info } = await encode(image, format, kept).toBuffer({ resolveWithObject: true });
        thumbs[name] = { data, width: info.width, height: info.height, extension };
      }),
    );
    return { width, height, format, full, thumbs: Object.fromEntries(targets.map(([name]) => [name, thumbs[name]!])) };
  });
}
