import { SEINE_VERSION, componentVersions } from '../../version.js';
import { defineCommand } from '../command.js';

/** `seine version [-v]`: like `scrapy version -v`, one aligned `name : version` line per component. */
export const versionCommand = defineCommand({
  name: 'version',
  description: 'Print seine version',
  defaultSettings: { LOG_ENABLED: false },
  builder: (parser) =>
    parser.option('verbose', {
      alias: 'v',
      type: 'boolean',
      describe: 'also display Node.js, dependency and platform versions (useful for bug reports)',
    }),
  handler({ args, stdout }) {
    if (args.verbose !== true) {
      stdout.write(`seine ${SEINE_VERSION}\n`);
      return;
    }
    const versions = componentVersions();
    const width = Math.max(...versions.map(([name]) => name.length));
    for (const [name, version] of versions) stdout.write(`${name.padEnd(width)} : ${version}\n`);
  },
});
