/** Component lists as a ported Scrapy project writes them: dotted paths of built-in components. */
import { describe, expect, it } from '@jest/globals';
import { orderedComponents, UnknownComponentError } from '../../src/crawler/component-list.js';

class RetryMiddleware {}
class RedirectMiddleware {}
class ImagesPipeline {}
const registry = new Map<string, new () => unknown>([
  ['RetryMiddleware', RetryMiddleware],
  ['RedirectMiddleware', RedirectMiddleware],
  ['ImagesPipeline', ImagesPipeline],
]);

describe('orderedComponents', () => {
  it("reads Scrapy's dotted path of a built-in component as its name", () => {
    expect(orderedComponents('ITEM_PIPELINES', {}, { 'scrapy.pipelines.images.ImagesPipeline': 1 }, registry)).toEqual([ImagesPipeline]);
  });

  it('turns a built-in off when its dotted path is set to null', () => {
    const base = { RetryMiddleware: 550, RedirectMiddleware: 600 };
    const user = { 'scrapy.downloadermiddlewares.retry.RetryMiddleware': null };
    expect(orderedComponents('DOWNLOADER_MIDDLEWARES', base, user, registry)).toEqual([RedirectMiddleware]);
  });

  it('still refuses a dotted path that names nothing seine has', () => {
    expect(() => orderedComponents('ITEM_PIPELINES', {}, { 'scrapy.pipelines.media.NoSuchPipeline': 1 }, registry)).toThrow(UnknownComponentError);
    expect(() => orderedComponents('ITEM_PIPELINES', {}, { 'myproject.pipelines.ImagesPipeline': 1 }, registry)).toThrow(
      "Unknown component 'myproject.pipelines.ImagesPipeline' in ITEM_PIPELINES",
    );
  });
});
