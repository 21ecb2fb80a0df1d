/**
 * The size Pillow's `Image.thumbnail(size)` gives an image (Pillow 9.4,
 * `preserve_aspect_ratio`), which Scrapy's ImagesPipeline uses for every
 * thumbnail: the largest size within `box` with the image's aspect, each side
 * rounded down or up, whichever keeps the aspect closer (down on a tie), at
 * least 1. `undefined` when the image already fits: Pillow never enlarges.
 */
export function thumbnailSize(width: number, height: number, box: readonly [number, number]): [number, number] | undefined {
  let x = Math.floor(box[0]);
  let y = Math.floor(box[1]);
  if (x >= width && y >= height) return undefined;
  const aspect = width / height;
  if (x / y >= aspect) {
    x = roundAspect(y * aspect, (n) => Math.abs(aspect - n / y));
  } else {
    y = roundAspect(x / aspect, (n) => (n === 0 ? 0 : Math.abs(aspect - x / n)));
  }
  return [x, y];
}

// Python's min(floor, ceil, key=key) keeps the first on a tie: the floor.
function roundAspect(value: number, distance: (n: number) => number): number {
  const down = Math.floor(value);
  const up = Math.ceil(value);
  return Math.max(distance(up) < distance(down) ? up : down, 1);
}
