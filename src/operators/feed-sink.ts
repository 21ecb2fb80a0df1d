import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import { getLogger } from '../log/index.js';
import { FeedExporter } from '../feeds/feed-exporter.js';
import { FeedError } from '../feeds/feed-errors.js';
import { resolveFeed, type FeedSpec } from '../feeds/feed-settings.js';
import { Settings } from '../settings/index.js';

export { FeedError };

export interface FeedSinkOptions extends FeedSpec {
  /** Overwrite (-O) or append (-o). */
  overwrite: boolean;
  /** What to export from each value (default: the value itself), e.g. `({ item }) => item`. */
  select?: (value: never) => unknown;
}

/**
 * Stage 7, feed sink: writes each value to a feed (docs/feeds.md: json,
 * jsonlines, csv, xml; format from `format` or the extension; `-` is
 * standard output) and passes it on unchanged. Every write is synchronous,
 * so Ctrl-C or a crash loses nothing already written, and an overwritten
 * JSON/XML file is replaced only when complete. The feed is opened on
 * subscription — one that cannot be opened errors the stream before
 * anything upstream runs — and closed (`Stored … feed`) on completion,
 * error or unsubscription. A feed that is delivered after it closes (to a
 * store such as `s3://…`, or post-processed) completes the stream only once
 * it is delivered or its local copy kept, so that code awaiting the stream
 * (`lastValueFrom`) finds the feed in place.
 */
export function feedSink<T>(options: FeedSinkOptions): MonoTypeOperatorFunction<T> {
  const select = (options.select ?? ((value: T) => value)) as (value: T) => unknown;
  return (source) =>
    new Observable<T>((subscriber) => {
      let exporter: FeedExporter;
      try {
        const feed = resolveFeed(options, new Settings());
        exporter = new FeedExporter([feed], { spider: {}, logger: getLogger('seine.extensions.feedexport') });
      } catch (error) {
        subscriber.error(error);
        return;
      }
      const subscription = source.subscribe({
        next: (value) => {
          try {
            exporter.exportItem(select(value));
          } catch (error) {
            subscriber.error(error);
            return;
          }
          subscriber.next(value);
        },
        // close() never rejects: a failed delivery is logged with the copy it keeps.
        error: (error: unknown) => void exporter.close().then(() => subscriber.error(error)),
        complete: () => void exporter.close().then(() => subscriber.complete()),
      });
      return () => {
        subscription.unsubscribe();
        void exporter.close();
      };
    });
}
