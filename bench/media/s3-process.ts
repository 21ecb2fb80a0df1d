/**
 * bench:media's S3 server in a process of its own (spec/helpers/s3-server.ts:
 * s3rver on a free loopback port), so its CPU is not the crawler's. Prints
 * `{"endpoint", "bucket", "root"}` on one line; stops, removing its folder,
 * when stdin closes.
 */
import { startS3Server } from '../../spec/helpers/s3-server.js';

const server = await startS3Server({ bucket: 'bench' });
process.stdout.write(`${JSON.stringify({ endpoint: server.endpoint, bucket: server.bucket, root: server.root })}\n`);
process.stdin.resume();
process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
