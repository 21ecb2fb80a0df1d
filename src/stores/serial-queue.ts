/**
 * Runs tasks one after another: an FTP control connection (and our use of
 * one SFTP session) carries one transfer at a time, while the media pipeline
 * and the feeds put objects concurrently.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
