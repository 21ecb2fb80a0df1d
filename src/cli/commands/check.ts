import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { loadSpiders, requireProject } from '../../project/project.js';
import { sourceFiles, spiderModuleFiles } from '../../project/spider-loader.js';
import { componentMap, orderedComponents, type ComponentOrderMap } from '../../crawler/component-list.js';
import type { Settings } from '../../settings/settings.js';
import { ContractError, contractName, type ContractClass } from '../../check-contracts/contract.js';
import { BUILTIN_CONTRACTS } from '../../check-contracts/default-contracts.js';
import { ContractReport } from '../../check-contracts/contract-report.js';
import { SourceDocs, testedMethods } from '../../check-contracts/tested-methods.js';
import { reportTypeCheck } from '../../project/type-check.js';
import { runContractChecks } from '../check-crawls.js';
import { defineCommand } from '../command.js';
import { cmdlineSettings } from '../run-crawl.js';
import { loadFailuresSummary, warnLoadFailures } from '../spider-load-failures.js';

interface CheckArgs {
  spider?: string[];
  list?: boolean;
  verbose?: boolean;
  typecheck?: boolean;
}

/** SPIDER_CONTRACTS_BASE merged with SPIDER_CONTRACTS, by the `@name` each class answers to. */
function contractRegistry(settings: Settings): Map<string, ContractClass> {
  const classes = orderedComponents('SPIDER_CONTRACTS', settings.get('SPIDER_CONTRACTS_BASE') as ComponentOrderMap, componentMap(settings, 'SPIDER_CONTRACTS'), BUILTIN_CONTRACTS as ReadonlyMap<string, never>);
  const registry = new Map<string, ContractClass>();
  for (const cls of classes as unknown as ContractClass[]) {
    const name = contractName(cls);
    if (name === null) {
      throw new ContractError(`The contract class ${(cls as Function).name || '(anonymous)'} in SPIDER_CONTRACTS has no name: add static name = '…', the word after @ in doc comments`);
    }
    registry.set(name, cls);
  }
  return registry;
}

/**
 * `seine check [spider…]`: runs the contracts in the spiders' callback doc
 * comments (Scrapy's check command) and reports them as a test run on
 * stderr; exit status 1 when any failed. `-l` lists the tested callbacks.
 * First it type-checks the project with the project's own TypeScript
 * compiler, when it has one (`--no-typecheck` skips that).
 */
export const checkCommand = defineCommand<CheckArgs>({
  name: 'check',
  positionals: '[spider..]',
  description: 'Check spider contracts',
  defaultSettings: { LOG_ENABLED: false },
  builder: (parser) =>
    parser
      .positional('spider', { type: 'string', array: true, describe: 'the spiders to check (default: all of them)' })
      .option('list', { alias: 'l', type: 'boolean', describe: 'only list contracts, without checking them' })
      .option('verbose', { alias: 'v', type: 'boolean', describe: 'print contract tests for all spiders' })
      // yargs reads `--no-typecheck` as `typecheck: false`; declared under both names so the help shows the one users type.
      .option('typecheck', { type: 'boolean', hidden: true })
      .option('no-typecheck', { type: 'boolean', describe: "skip the type check with the project's TypeScript compiler" }) as never,
  async handler({ args, settings, logBus, cwd, stdout, stderr, project: opened }) {
    const project = requireProject(opened, cwd);
    const spiders = await loadSpiders(project);
    // A file that does not load costs its own spiders: the others are checked, and the status is 1.
    warnLoadFailures(spiders.failures, stderr);
    const unloaded = (): number => {
      const summary = loadFailuresSummary(spiders.failures, 'not checked');
      if (summary !== null) stderr.write(summary);
      return summary === null ? 0 : 1;
    };
    const names = args.spider !== undefined && args.spider.length > 0 ? args.spider : spiders.list();
    const found = names.map((name) => spiders.load(name));
    const contracts = contractRegistry(settings);
    const root = project.config.root;
    // Listed once; each spider's own file is read first, then its modules' and the project's other files (for base classes).
    const projectFiles = [...project.spiderModules.flatMap((module) => spiderModuleFiles(root, module)), ...sourceFiles(root)];
    const checked = found.map((spider) => {
      const sources = new SourceDocs([...new Set([join(root, spider.file), ...projectFiles])]);
      return { name: spider.name, spiderClass: spider.spiderClass, methods: testedMethods(spider.spiderClass, sources, new Set(contracts.keys())) };
    });

    if (args.list === true) {
      for (const spider of [...checked].sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (spider.methods.length === 0) continue;
        stdout.write(`${spider.name}\n`);
        for (const method of spider.methods) stdout.write(`  * ${method.name}\n`);
      }
      return unloaded();
    }

    // Spiders load with their types stripped, so only this catches a misspelt field (type-check.ts).
    const typed = args.typecheck === false || (await reportTypeCheck(root, cwd, stderr));
    const report = new ContractReport(stderr, args.verbose === true);
    // Spiders may tell a check from a crawl, as with Scrapy's SCRAPY_CHECK.
    const previous = process.env['SEINE_CHECK'];
    process.env['SEINE_CHECK'] = 'true';
    const started = performance.now();
    try {
      await runContractChecks({
        spiders: checked, contracts, report, projectRoot: root, logBus,
        // A check exports nothing and keeps out of the crawl's job folder.
        settings: { ...cmdlineSettings(settings), FEEDS: {}, JOBDIR: null },
        projectSettings: { ...project.settings },
      });
    } finally {
      if (previous === undefined) delete process.env['SEINE_CHECK'];
      else process.env['SEINE_CHECK'] = previous;
    }
    report.finish((performance.now() - started) / 1000);
    return unloaded() === 0 && report.successful && typed ? 0 : 1;
  },
});
