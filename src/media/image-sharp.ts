import type { Metadata, Sharp, SharpOptions } from 'sharp';
import { lazyPackage } from '../errors/lazy-package.js';
import { ImageFormatError } from './image-format-error.js';
import { parseImageHeader, type ImageHeader } from './image-header.js';

export type { ImageHeader } from './image-header.js';

/**
 * What image-conversion.ts and image-set.ts share: sharp, loaded on first
 * use and configured once; the header read that says whether bytes are an
 * image; the image as Pillow sees it before Scrapy resizes it (RGB, no
 * alpha); the encoders.
 */

// require('sharp') is the function itself: the ESM view's default export.
type SharpModule = (typeof import('sharp'))['default'];

const loadSharp = lazyPackage<SharpModule>('sharp', 'ImagesPipeline (image conversion and thumbnails)');
let configured = false;

export function sharpModule(): SharpModule {
  const sharp = loadSharp();
  if (!configured) {
    // libvips' operation cache keeps recent images' pixels for reuse; a crawl
    // never converts the same image twice, so it would only hold memory.
    // Concurrency stays sharp's default (1 thread per image on glibc without
    // jemalloc, against fragmentation): images run in parallel on libuv's pool,
    // at most its 4 threads at once (ImagesPipeline waits for a slot first:
    // conversion-slots.ts). Holding conversions to 2 or 3 at once (the cores)
    // lowered bench:media's peak RSS by ~20 MB (fewer threads keep a malloc
    // arena) but made it 15–50 % slower: not done.
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

export function describe(input: string | Buffer): string {
  return typeof input === 'string' ? input : `(${input.length} bytes)`;
}

export async function readHeader(input: string | Buffer): Promise<ImageHeader> {
  if (Buffer.isBuffer(input) && input.length === 0) throw new ImageFormatError(describe(input), 'the body is empty');
  const parsed = Buffer.isBuffer(input) ? parseImageHeader(input) : undefined;
  if (parsed !== undefined) return parsed;
  let metadata: Metadata;
  try {
    metadata = await sharpModule()(input).metadata();
  } catch (error) {
    throw new ImageFormatError(describe(input), (error as Error).message, { cause: error });
  }
  const format = metadata.format === 'heif' && metadata.compression === 'av1' ? 'avif' : String(metadata.format ?? 'unknown');
  if (!RASTER_FORMATS.has(format) || metadata.width === undefined || metadata.height === undefined) {
    throw new ImageFormatError(describe(input), `${format} is not a raster image format`);
  }
  const { width, height, space, channels, hasAlpha, isPalette } = metadata;
  return { format, width, height, space, channels, hasAlpha: hasAlpha === true, isPalette: isPalette === true };
}

/** Whether `format` is one of `keepFormats` ('jpg' and 'jpeg' alike, any case). */
export function isKept(format: string, keepFormats: readonly string[] | undefined): boolean {
  return (keepFormats ?? []).some((kept) => (FORMAT_ALIASES[kept.toLowerCase()] ?? kept.toLowerCase()) === format);
}

export function extensionOf(format: string, kept: boolean): string {
  return kept ? (EXTENSIONS[format] ?? format) : 'jpg';
}

/** Scrapy keeps an RGB JPEG's bytes as they came (Pillow's mode 'RGB', format 'JPEG'). */
export function isPlainJpeg({ format, space, channels }: ImageHeader): boolean {
  return format === 'jpeg' && space === 'srgb' && channels === 3;
}

/** The encoder of the stored file: Pillow's default JPEG, or the kept format. */
export function encode(image: Sharp, format: string, kept: boolean): Sharp {
  // Pillow's save() does not optimise Huffman tables (optimize=False); sharp
  // does by default, a second pass that doubled the CPU of a thumbnail's
  // encode. The pixels are the same either way (the coding is lossless).
  if (!kept) return image.jpeg({ quality: PIL_JPEG_QUALITY, optimiseCoding: false });
  return format === 'avif' ? image.heif({ compression: 'av1' }) : image.toFormat(format as 'png');
}

/**
 * Pillow's Image.thumbnail resamples with Lanczos (a = 3), as Scrapy asks.
 * Scrapy's thumbnail is of a copy, which Pillow cannot draft (decode a JPEG
 * at 1/2, 1/4, 1/8): it reduces by an integer factor with a box filter so
 * that at least 2× is left to resample (reducing_gap 2). sharp's
 * fastShrinkOnLoad: false is the nearest: a JPEG decodes smaller, leaving
 * at least 2× for Lanczos. `shrinkOnLoad` decodes it as small as the target
 * allows: less CPU; a 50×50 thumbnail of a big JPEG, decoded at 1/8, was
 * 2–3× further from Pillow's, so convertImageSet asks it for its largest
 * thumbnail only (270×270 on bench:media: as close to Pillow's either way).
 */
export function resize(image: Sharp, [width, height]: readonly [number, number], { shrinkOnLoad = false } = {}): Sharp {
  return image.resize(width, height, { fit: 'fill', kernel: 'lanczos3', fastShrinkOnLoad: shrinkOnLoad });
}

// Pillow ignores embedded colour profiles when it converts; so does this.
const AS_PILLOW: SharpOptions = { ignoreIcc: true };

/** The image as Pillow's convert_image sees it before resizing: RGB, no alpha. */
export async function rgbImage(input: string | Buffer, header: ImageHeader): Promise<Sharp> {
  const sharp = sharpModule();
  if (header.space === 'cmyk') return sharp(await cmykToRgb(input), { raw: { width: header.width, height: header.height, channels: 3 } });
  const image = sharp(input, AS_PILLOW);
  if (!header.hasAlpha) return image.toColourspace('srgb');
  // Scrapy pastes RGBA PNG/WebP and palette images (GIF, palette PNG) on
  // white; any other alpha (grey+alpha PNG, RGBA TIFF) Pillow's convert('RGB') drops.
  const pastedOnWhite = header.isPalette || (header.channels === 4 && header.format !== 'tiff');
  if (pastedOnWhite) return image.flatten({ background: '#ffffff' }).toColourspace('srgb');
  // sharp would resize with the alpha (premultiplied: transparent turns
  // black) before dropping it; Pillow drops it first, so the RGB is made here.
  const { data, info } = await image.removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
}

/**
 * Pillow's CMYK → RGB (Convert.c, cmyk2rgb): each channel (255 − k) − c·(255 − k)/255,
 * with its rounding, no colour profile; libvips would go through one and give other colours.
 * The one pass over pixels in JavaScript, on the event loop (rare images; ~30 ms for 12 megapixels).
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

/** A sharp failure after the header was read (truncated data, a decoder error) is an ImageFormatError too. */
export async function asImageFormatError<T>(input: string | Buffer, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ImageFormatError) throw error;
    throw new ImageFormatError(describe(input), (error as Error).message, { cause: error });
  }
}
