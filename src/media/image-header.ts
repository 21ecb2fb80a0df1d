/**
 * What image conversion needs to know before it decodes, read from the
 * first bytes of the two common cases in JavaScript: an 8-bit RGB or RGBA
 * PNG, and a JPEG (its frame header). Each sharp call costs the event loop
 * 0.3–1 ms (sharp reads its options and starts the job there), and the
 * header of every image is read before it is converted; anything else
 * (GIF, WebP, palettes, 16 bits, a PNG with tRNS, broken bytes) returns
 * undefined and is read by sharp, which also says why bytes are no image.
 * spec/media/image-conversion-header.spec.ts checks both agree.
 */

export interface ImageHeader {
  /** sharp's format name, 'avif' for AV1 HEIF. */
  format: string;
  width: number;
  height: number;
  /** sharp's colour space: 'srgb', 'b-w', 'cmyk', … */
  space: string;
  channels: number;
  hasAlpha: boolean;
  isPalette: boolean;
}

export function parseImageHeader(bytes: Buffer): ImageHeader | undefined {
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return jpegHeader(bytes);
  if (bytes.length > 33 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.readUInt32BE(4) === 0x0d0a1a0a) return pngHeader(bytes);
  return undefined;
}

const JPEG_SPACES: Record<number, string> = { 1: 'b-w', 3: 'srgb', 4: 'cmyk' };

// Start-of-frame markers: C0–CF but DHT (C4), JPG (C8) and DAC (CC).
const isStartOfFrame = (marker: number): boolean => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpegHeader(bytes: Buffer): ImageHeader | undefined {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // no length
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return undefined; // scan or end before a frame header
    if (isStartOfFrame(marker)) {
      const height = bytes.readUInt16BE(at + 5);
      const width = bytes.readUInt16BE(at + 7);
      const channels = bytes[at + 9]!;
      const space = JPEG_SPACES[channels];
      // a height of 0 is given later (DNL): sharp's business
      if (space === undefined || width === 0 || height === 0) return undefined;
      return { format: 'jpeg', width, height, space, channels, hasAlpha: false, isPalette: false };
    }
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return undefined;
}

function pngHeader(bytes: Buffer): ImageHeader | undefined {
  if (bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const bitDepth = bytes[24];
  const colourType = bytes[25];
  if (bitDepth !== 8 || (colourType !== 2 && colourType !== 6) || width === 0 || height === 0) return undefined;
  // A tRNS chunk before the image data gives RGB an alpha channel.
  for (let at = 8; at + 8 <= bytes.length; ) {
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (type === 'tRNS') return undefined;
    if (type === 'IDAT') {
      const hasAlpha = colourType === 6;
      return { format: 'png', width, height, space: 'srgb', channels: hasAlpha ? 4 : 3, hasAlpha, isPalette: false };
    }
    at += 12 + bytes.readUInt32BE(at);
  }
  return undefined;
}
