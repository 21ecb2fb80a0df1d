// Where a crawl's promoted garbage is allocated: preload this into the seine
// process (`node --import ./bench/crawl/promoted-sampler.mjs bin/seine.js
// runspider …`) and it writes a .heapprofile (open it in Chrome DevTools'
// Memory tab, or sum `selfSize` per call frame) of the sampled objects that
// were still alive, or died only in a full (mark-compact) GC: objects that
// die young in a scavenge are left out, so what remains is mostly what V8
// promoted to old space before it died. A plain JavaScript file so that the
// crawler runs without tsx in its main thread, as users run it.
//
// SEINE_PROMOTED_PROFILE: output file (default ./promoted.heapprofile);
// SEINE_PROMOTED_INTERVAL: mean bytes between samples (default 8192).
// `node --trace-gc-nvp` gives the totals (`promoted=` per scavenge) to
// compare with. See bench/crawl/PROPOSALS.md for the findings.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const out = process.env.SEINE_PROMOTED_PROFILE ?? 'promoted.heapprofile';
const session = new Session();
session.connect();
session.post('HeapProfiler.startSampling', {
  samplingInterval: Number(process.env.SEINE_PROMOTED_INTERVAL ?? 8192),
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: false,
});
process.on('exit', () => {
  // The inspector answers synchronously on the same thread, so this runs before the process ends.
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (error) process.stderr.write(`promoted-sampler: ${error.message}\n`);
    else writeFileSync(out, JSON.stringify(result.profile));
  });
});
