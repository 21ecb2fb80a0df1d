import { readFile } from 'node:fs/promises';
import type { Metadata, Sharp, SharpOptions } from 'sharp';
import { lazyPackage } from '../errors/lazy-package.js';
import { ImageFormatError } from './image-format-error.js';
import { thumbnailSize } from './image-thumbnail-size.js';

export { ImageFormatError } from './image-format-error.js';

/**
 * Image conversion and thumbnails for ImagesPipeline, with sharp (libvips),
 * reproducing Scrapy 2.8's `ImagesPipeline.convert_image` on Pillow: the
 * same output sizes and the same pixels within JPEG noise, not the same
 * bytes (spec/media/image-conversion-oracle.spec.ts compares them with
 * Pillow's, recorded in spec/media/fixtures/images-oracle.json).
 *
 * sharp decodes and encodes on libuv's thread pool, so the event loop only
 * waits; the one exception is the CMYK → RGB arithmetic below, a pass over
 * the pixels in JavaScript (rare images; ~30 ms for 12 megapixels).
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

// require('sharp') is the function itself: the ESM view's default export.
type SharpModule = (typeof import('sharp'))['default'];

const loadSharp = lazyPackage<SharpModule>('sharp', 'ImagesPipeline (image conversion and thumbnails)');
let configured = false;

function sharpModule(): SharpModule {
  const sharp = loadSharp();
  if (!configured) {
    // libvips' operation cache keeps recent images' pixels for reuse; a crawl
    // never converts the same image twice, so it would only hold memory.
    // Concurrency stays sharp's default (1 thread per image on glibc without
    // jemalloc, against fragmentation): images run in parallel on libuv's pool.
    sharp.cache(false);
    configured = true;
  }
  return sharp;
}

// What Pillow 9.4 (Scrapy's image library) opens, plus AVIF/HEIF for keepFormats.
const RASTER_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'tiff', 'avif', 'heif', 'jp2']);
const EXTENSIONS: Record<string, string> = { jpeg: 'jpg', tiff: 'tif' };
const FORMAT_ALIASES: Record<string, string> = { jpg: 'jpeg', tif: 'tiff' };

// Pillow's JPEG quality when `save` is given none, as Scrapy calls it.
const PIL_JPEG_QUALITY = 75;

function describe(input: string | Buffer): string {
  return typeof input === 'string' ? input : `(${input.length} bytes)`;
}

function formatOf(metadata: Metadata): string {
  const format = String(metadata.format ?? 'unknown');
  return format === 'heif' && metadata.compression === 'av1' ? 'avif' : format;
}

async function readMetadata(input: string | Buffer): Promise<{ metadata: Metadata; format: string; width: number; height: number }> {
  if (Buffer.isBuffer(input) && input.length === 0) throw new ImageFormatError(describe(input), 'the body is empty');
  let metadata: Metadata;
  try {
    metadata = await sharpModule()(input).metadata();
  } catch (error) {
    throw new ImageFormatError(describe(input), (error as Error).message, { cause: error });
  }
  const format = formatOf(metadata);
  if (!RASTER_FORMATS.has(format) || metadata.width === undefined || metadata.height === undefined) {
    throw new ImageFormatError(describe(input), `${format} is not a raster image format`);
  }
  return { metadata, format, width: metadata.width, height: metadata.height };
}

/** The image's pixel size and format ('jpeg', 'png', 'webp', 'gif', 'avif', …), from its header only. */
export async function readImageSize(input: string | Buffer): Promise<ImageSize & { format: string }> {
  const { format, width, height } = await readMetadata(input);
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
  const { metadata, format, width, height } = await readMetadata(input);
  const keep = (options.keepFormats ?? []).some((kept) => (FORMAT_ALIASES[kept.toLowerCase()] ?? kept.toLowerCase()) === format);
  const extension = keep ? (EXTENSIONS[format] ?? format) : 'jpg';
  const isPlainJpeg = format === 'jpeg' && metadata.space === 'srgb' && metadata.channels === 3;
  if (options.size === undefined && (keep || isPlainJpeg)) {
    return { data: Buffer.isBuffer(input) ? input : await readFile(input), width, height, extension };
  }
  try {
    let image = keep ? sharpModule()(input) : await rgbImage(input, metadata, format);
    const target = options.size === undefined ? undefined : thumbnailSize(width, height, options.size);
    if (target !== undefined) image = image.resize(target[0], target[1], { fit: 'fill', kernel: 'lanczos3', fastShrinkOnLoad: false });
    image = keep ? image.toFormat(format === 'avif' ? 'heif' : (format as 'png'), format === 'avif' ? { compression: 'av1' } : {}) : image.jpeg({ quality: PIL_JPEG_QUALITY });
    const { data, info } = await image.toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, extension };
  } catch (error) {
    if (error instanceof ImageFormatError) throw error;
    throw new ImageFormatError(describe(input), (error as Error).message, { cause: error });
  }
}

// Pillow ignores embedded colour profiles when it converts; so does this.
const AS_PILLOW: SharpOptions = { ignoreIcc: true };

/** The image as Pillow's convert_image sees it before resizing: RGB, no alpha. */
async function rgbImage(input: string | Buffer, metadata: Metadata, format: string): Promise<Sharp> {
  const sharp = sharpModule();
  if (metadata.space === 'cmyk') return sharp(await cmykToRgb(input), { raw: { width: metadata.width ?? 0, height: metadata.height ?? 0, channels: 3 } });
  const image = sharp(input, AS_PILLOW);
  if (!metadata.hasAlpha) return image.toColourspace('srgb');
  // Scrapy pastes RGBA PNG/WebP and palette images (GIF, palette PNG) on
  // white; any other alpha (grey+alpha PNG, RGBA TIFF) Pillow's convert('RGB') drops.
  const pastedOnWhite = metadata.isPalette === true || (metadata.channels === 4 && format !== 'tiff');
  if (pastedOnWhite) return image.flatten({ background: '#ffffff' }).toColourspace('srgb');
  // sharp would resize with the alpha (premultiplied: transparent turns
  // black) before dropping it; Pillow drops it first, so the RGB is made here.
  const { data, info } = await image.removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
}

/**
 * Pillow's CMYK → RGB (Convert.c, cmyk2rgb): each channel (255 − k) − c·(255 − k)/255,
 * with its rounding, no colour profile; libvips would go through one and give other colours.
 */
async function cmykToRgb(input: string | Buffer): Promise<Buffer> {
  const { data } = await sharpModule()(input, AS_PILLOW).pipelineColourspace('cmyk').toColourspace('cmyk').raw().toBuffer({ resolveWithObject: true });
  const pixels = data.length >> 2;
  const rgb = Buffer.allocUnsafe(pixels * 3);
  for (let i = 0; i < pixels; i++) {
    const nk = 255 - data[i * 4 + 3]!;
    for (let c = 0; c < 3; c++) {
      const t = data[i * 4 + c]! * nk + 128;
      rgb[i * 3 + c] = nk - (((t >> 8) + t) >> 8);
    }
  }
  return rgb;
}
