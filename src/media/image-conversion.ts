import { readFile } from 'node:fs/promises';
import { thumbnailSize } from './image-thumbnail-size.js';
import { asImageFormatError, encode, extensionOf, isKept, isPlainJpeg, readHeader, resize, rgbImage, sharpModule } from './image-sharp.js';

export { ImageFormatError } from './image-format-error.js';
export { convertImageSet, type ConvertedImageSet, type ConvertImageSetOptions } from './image-set.js';

/**
 * Image conversion and thumbnails for ImagesPipeline, with sharp (libvips),
 * reproducing Scrapy 2.8's `ImagesPipeline.convert_image` on Pillow: the
 * same output sizes and the same pixels within JPEG noise, not the same
 * bytes (spec/media/image-conversion-oracle.spec.ts compares them with
 * Pillow's, recorded in spec/media/fixtures/images-oracle.json).
 *
 * sharp decodes and encodes on libuv's thread pool, so the event loop only
 * waits (but for CMYK's arithmetic, image-sharp.ts). convertImageSet
 * (image-set.ts) makes the full image and every thumbnail from one decode.
 */

export interface ImageSize {
  width: number;
  height: number;
}

export interface ConvertedImage {
  data: Buffer;
  width: number;
  height: number;
  /** 'jpg', or the kept format's extension ('png', 'webp', 'avif', 'gif', 'tif'). */
  extension: string;
}

export interface ConvertImageOptions {
  /** Thumbnail box: the image is shrunk to fit it as Pillow's Image.thumbnail does (never enlarged). */
  size?: readonly [number, number];
  /** Formats kept as they come instead of becoming JPEG, e.g. ['webp', 'avif', 'png']. */
  keepFormats?: readonly string[];
}

/** The image's pixel size and format ('jpeg', 'png', 'webp', 'gif', 'avif', …), from its header only. */
export async function readImageSize(input: string | Buffer): Promise<ImageSize & { format: string }> {
  const { format, width, height } = await readHeader(input);
  return { width, height, format };
}

/**
 * Scrapy 2.8's `ImagesPipeline.convert_image`: an RGB JPEG, transparent
 * PNG/WebP/GIF and palette images flattened on white, CMYK converted as
 * Pillow does (no colour profile), optionally shrunk to fit `size` with
 * Pillow's thumbnail sizes and a Lanczos filter. An RGB JPEG without `size`
 * comes back byte for byte, as in Scrapy (its checksum is the download's).
 * A format listed in `keepFormats` stays in that format, alpha and all.
 * Animated GIF/WebP: the first frame, as Pillow opens them.
 */
export async function convertImage(input: string | Buffer, options: ConvertImageOptions = {}): Promise<ConvertedImage> {
  const header = await readHeader(input);
  const kept = isKept(header.format, options.keepFormats);
  const extension = extensionOf(header.format, kept);
  if (options.size === undefined && (kept || isPlainJpeg(header))) {
    return { data: Buffer.isBuffer(input) ? input : await readFile(input), width: header.width, height: header.height, extension };
  }
  return asImageFormatError(input, async () => {
    let image = kept ? sharpModule()(input) : await rgbImage(input, header);
    const target = options.size === undefined ? undefined : thumbnailSize(header.width, header.height, options.size);
    if (target !== undefined) image = resize(image, target);
    const { data, info } = await encode(image, header.format, kept).toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, extension };
  });
}
