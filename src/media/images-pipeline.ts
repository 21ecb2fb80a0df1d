/**
 * Scrapy's ImagesPipeline (scrapy/pipelines/images.py, 2.8) on
 * FilesPipeline: each image is stored as an RGB JPEG at `full/<sha1 of the
 * URL>.jpg` (an RGB JPEG as it came, others converted by
 * image-conversion.ts), a thumbnail per IMAGES_THUMBS entry at
 * `thumbs/<name>/<sha1>.jpg`, and the result's checksum is the MD5 of the
 * stored full image. Images smaller than IMAGES_MIN_WIDTH × IMAGES_MIN_HEIGHT
 * are left out (Scrapy's `Image too small (…)` WARNING). Stats are
 * FilesPipeline's (`file_count`, `file_status_count/…`), as in Scrapy.
 *
 * Beyond Scrapy: formats listed in IMAGES_KEEP_FORMATS (`['webp', 'avif',
 * 'png']`) are stored as they come, and their paths end in that format's
 * extension (`full/<sha1>.webp`, `thumbs/small/<sha1>.webp`).
 */
import { createHash } from 'node:crypto';
import { Request, type Item } from '../http/request.js';
import type { Response } from '../http/response.js';
import { Settings } from '../settings/index.js';
import { FilesPipeline, type MediaInfo, type MediaItemOption } from './files-pipeline.js';
import { ImageException } from './media-errors.js';
import { mediaGuid } from './file-path.js';
import { mediaUrls, setMediaResults } from './item-fields.js';
import { bodyInput } from './media-body.js';
import { conversionSlots } from './conversion-slots.js';
import { ImageFormatError, convertImageSet } from './image-conversion.js';
import type { MediaResult, FileResult } from './files-pipeline.js';

export class ImagesPipeline extends FilesPipeline {
  static override readonly MEDIA_NAME: string = 'image';
  static override readonly STORE_SETTING = 'IMAGES_STORE' as const;

  imagesUrlsField: string;
  imagesResultField: string;
  minWidth: number;
  minHeight: number;
  thumbs: Record<string, readonly [number, number]>;
  keepFormats: readonly string[];

  constructor(storeUri?: string | null, settings: Settings = new Settings()) {
    super(storeUri, settings);
    this.expires = settings.getInt('IMAGES_EXPIRES');
    this.imagesUrlsField = String(settings.get('IMAGES_URLS_FIELD'));
    this.imagesResultField = String(settings.get('IMAGES_RESULT_FIELD'));
    this.minWidth = settings.getInt('IMAGES_MIN_WIDTH');
    this.minHeight = settings.getInt('IMAGES_MIN_HEIGHT');
    this.thumbs = settings.getDict('IMAGES_THUMBS') as Record<string, readonly [number, number]>;
    this.keepFormats = settings.getList('IMAGES_KEEP_FORMATS').map(String);
  }

  /** Images are decoded whole: their bodies stay in memory (FilesPipeline.streamsBodies). */
  protected override get streamsBodies(): boolean {
    return false;
  }

  override fileDownloaded(response: Response, request: Request, info: MediaInfo, options: MediaItemOption = {}): Promise<string> {
    return this.imageDownloaded(response, request, info, options);
  }

  /** Stores the full image and its thumbnails; resolves with the MD5 of the stored full image. */
  async imageDownloaded(response: Response, request: Request, info: MediaInfo, options: MediaItemOption = {}): Promise<string> {
    const input = bodyInput(response);
    try {
      return await this.#storeImage(input, response, request, info, options);
    } catch (error) {
      // The decoder names the temporary file the body was streamed to: the user knows the image by its URL.
      if (error instanceof ImageFormatError && typeof input === 'string') error.message = error.message.replace(input, request.url);
      throw error;
    }
  }

  async #storeImage(input: string | Buffer, response: Response, request: Request, info: MediaInfo, { item }: MediaItemOption): Promise<string> {
    // One decode for the full image and every thumbnail (image-set.ts), not one per output as Scrapy's convert_image calls.
    const set = await conversionSlots.run(() => convertImageSet(input, {
      thumbs: this.thumbs,
      keepFormats: this.keepFormats,
      check: ({ width, height }) => {
        if (width < this.minWidth || height < this.minHeight) {
          throw new ImageException(`Image too small (${width}x${height} < ${this.minWidth}x${this.minHeight})`);
        }
      },
    }));
    const { full } = set;
    const path = withExtension(this.filePath(request, response, info, { item }), full.extension);
    await this.putFile(path, () => full.data, { contentType: contentTypeOf(full.extension), size: full.data.length });
    this.#storedPaths.set(request, path);
    for (const [thumbId, thumb] of Object.entries(set.thumbs)) {
      const thumbPath = withExtension(this.thumbPath(request, thumbId, response, info, { item }), thumb.extension);
      await this.putFile(thumbPath, () => thumb.data, { contentType: contentTypeOf(thumb.extension), size: thumb.data.length });
    }
    return createHash('md5').update(full.data).digest('hex');
  }

  /** The result names the path the full image was stored at: its own extension when IMAGES_KEEP_FORMATS kept its format. */
  override async mediaDownloaded(response: Response, request: Request, info: MediaInfo, options: MediaItemOption = {}): Promise<FileResult> {
    const result = await super.mediaDownloaded(response, request, info, options);
    const stored = this.#storedPaths.get(request);
    return stored === undefined ? result : { ...result, path: stored };
  }

  /** The full image's path as stored, by request, for mediaDownloaded's result. */
  readonly #storedPaths = new WeakMap<Request, string>();

  override getMediaRequests(item: Item, _info: MediaInfo): Request[] | Promise<Request[]> {
    return mediaUrls(item, this.imagesUrlsField).map((url) => new Request(url));
  }

  override itemCompleted(results: MediaResult[], item: Item, _info: MediaInfo): Item | Promise<Item> {
    setMediaResults(item, this.imagesResultField, results.filter((r): r is [true, FileResult] => r[0]).map((r) => r[1]));
    return item;
  }

  /** `full/<sha1 of the URL>.jpg`. */
  override filePath(request: Request, _response?: Response, _info?: MediaInfo, _options: MediaItemOption = {}): string {
    return `full/${mediaGuid(request.url)}.jpg`;
  }

  /** `thumbs/<thumb id>/<sha1 of the URL>.jpg`. */
  thumbPath(request: Request, thumbId: string, _response?: Response, _info?: MediaInfo, _options: MediaItemOption = {}): string {
    return `thumbs/${thumbId}/${mediaGuid(request.url)}.jpg`;
  }
}

/** A kept format's extension in place of the path's `.jpg`; any other path (a subclass's own) as it is. */
function withExtension(path: string, extension: string): string {
  return extension !== 'jpg' && path.endsWith('.jpg') ? `${path.slice(0, -'.jpg'.length)}.${extension}` : path;
}

function contentTypeOf(extension: string): string {
  return extension === 'jpg' ? 'image/jpeg' : extension === 'tif' ? 'image/tiff' : `image/${extension}`;
}
