/**
 * The images bench:media serves: SOURCES photo-like pictures made with sharp
 * at start-up (blurred noise over a gradient, which compresses as a photo
 * does), 10 JPEGs of 640×480 to 1600×1200 (26–157 KB) and 2 PNGs (127 KB), 77 KB on average. The
 * 2,000 image URLs cycle through them (image i is source i mod 12), so
 * every URL is a distinct download, conversion and set of thumbnails, of
 * bytes some other URL also serves. Same seed, same bytes.
 */
import sharp from 'sharp';

export interface SourceImage {
  bytes: Buffer;
  contentType: string;
  extension: string;
}

const SHAPES: readonly { width: number; height: number; format: 'jpeg' | 'png' }[] = [
  { width: 640, height: 480, format: 'jpeg' },
  { width: 800, height: 600, format: 'jpeg' },
  { width: 1024, height: 768, format: 'jpeg' },
  { width: 1200, height: 800, format: 'jpeg' },
  { width: 1600, height: 1200, format: 'jpeg' },
  { width: 480, height: 640, format: 'jpeg' },
  { width: 900, height: 900, format: 'jpeg' },
  { width: 1280, height: 720, format: 'jpeg' },
  { width: 720, height: 1280, format: 'jpeg' },
  { width: 1000, height: 667, format: 'jpeg' },
  { width: 256, height: 192, format: 'png' },
  { width: 220, height: 220, format: 'png' },
];

export const SOURCES = SHAPES.length;

/** Products on each listing page of the site (site-server.ts). */
export const PER_PAGE = 20;

async function photoLike(index: number, width: number, height: number): Promise<Buffer> {
  const gradient = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      gradient[at] = (x * 255) / width;
      gradient[at + 1] = (y * 255) / height;
      gradient[at + 2] = (index * 40 + ((x + y) * 128) / (width + height)) & 0xff;
    }
  }
  const noise = await sharp({ create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .blur(1.2)
    .raw()
    .toBuffer();
  for (let i = 0; i < gradient.length; i++) gradient[i] = (gradient[i]! * 3 + noise[i]!) >> 2;
  return gradient;
}

export async function makeSourceImages(): Promise<SourceImage[]> {
  return Promise.all(
    SHAPES.map(async ({ width, height, format }, index) => {
      const image = sharp(await photoLike(index, width, height), { raw: { width, height, channels: 3 } });
      const bytes = format === 'jpeg' ? await image.jpeg({ quality: 82 }).toBuffer() : await image.png({ compressionLevel: 6 }).toBuffer();
      return { bytes, contentType: `image/${format}`, extension: format === 'jpeg' ? 'jpg' : 'png' };
    }),
  );
}
