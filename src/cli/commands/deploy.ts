import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineCommand } from '../command.js';
import type { TextWriter } from '../../log/sink.js';
import { maskUrlCredentials } from '../../url-credentials.js';
import { requireProject } from '../../project/project.js';
import { DeployError } from '../../deploy/deploy-error.js';
import { deployTargets, findTarget, type DeployTarget } from '../../deploy/deploy-targets.js';
import { deployVersion } from '../../deploy/deploy-version.js';
import { packProject } from '../../deploy/pack-project.js';
import { addVersionUrl, failureOf, uploadVersion } from '../../deploy/upload.js';

/**
 * `seine deploy [target]`: scrapyd-deploy for a seine project. Packs the
 * project (src/deploy/pack-project.ts) and uploads it to the target's
 * `addversion.json`; `-a` deploys to every target, `-l` lists them, `--build-egg FILE` writes the
 * tarball instead of uploading it. Progress on standard error, the
 * service's answer on standard output, as scrapyd-deploy prints them.
 */
export const deployCommand = defineCommand<{ target?: string; version?: string; project?: string; listTargets?: boolean; deployAllTargets?: boolean; buildEgg?: string }>({
  name: 'deploy',
  positionals: '[target]',
  description: 'Deploy the project to a seine serve (scrapyd) server',
  defaultSettings: { LOG_ENABLED: false },
  builder: (parser) =>
    parser
      .positional('target', { type: 'string', describe: "the [deploy:<target>] of seine.cfg (default: [deploy])" })
      .option('version', { type: 'string', requiresArg: true, describe: 'the version to deploy (default: the git commit of a clean checkout, else a timestamp)' })
      .option('project', { alias: 'p', type: 'string', requiresArg: true, describe: "the project name on the server (default: the target's project)" })
      .option('list-targets', { alias: 'l', type: 'boolean', describe: 'list the targets of seine.cfg' })
      .option('deploy-all-targets', { alias: 'a', type: 'boolean', describe: 'deploy to every target of seine.cfg' })
      .option('build-egg', { type: 'string', requiresArg: true, describe: 'write the packed project (.tar.gz) to this file instead of deploying it' }) as never,
  async handler({ args, cwd, stdout, stderr, project: opened }) {
    const config = requireProject(opened, cwd).config;
    if (args.listTargets === true) {
      for (const target of deployTargets(config.sections)) stdout.write(`${target.name.padEnd(20)} ${maskUrlCredentials(target.url ?? '(no url)')}\n`);
      return;
    }
    const root = config.root;
    if (args.buildEgg !== undefined) {
      const { tarball, files } = await packProject(root);
      writeFileSync(resolve(cwd, args.buildEgg), tarball);
      stderr.write(`Writing the project (${files.length} files) to ${args.buildEgg}\n`);
      return;
    }
    if (args.deployAllTargets === true) {
      // scrapyd-deploy -a: every target in turn; one that fails does not stop the others.
      const targets = deployTargets(config.sections);
      if (targets.length === 0) throw new DeployError('seine.cfg has no [deploy] or [deploy:<target>] section: add one with url = http://localhost:6800/ and project = <name>');
      const failures: string[] = [];
      for (const target of targets) {
        try {
          await deployTo(target, root, args, stdout, stderr);
        } catch (error) {
          if (!(error instanceof DeployError)) throw error;
          stderr.write(`seine: ${target.name}: ${error.message}\n`);
          failures.push(target.name);
        }
      }
      if (failures.length > 0) throw new DeployError(`deploying to ${failures.join(', ')} failed (see above); the other targets have the new version`);
      return;
    }
    await deployTo(findTarget(config.sections, args.target ?? 'default'), root, args, stdout, stderr);
  },
});

async function deployTo(target: DeployTarget, root: string, args: { version?: string; project?: string }, stdout: TextWriter, stderr: TextWriter): Promise<void> {
  const url = addVersionUrl(target);
  const project = args.project ?? target.project;
  if (project === undefined) {
    throw new DeployError(`no project name: set project = <name> in seine.cfg's [${target.name === 'default' ? 'deploy' : `deploy:${target.name}`}] or pass -p <name>`);
  }
  const version = deployVersion(root, args.version, target.version);
  stderr.write(`Packing version ${version}\n`);
  const { tarball } = await packProject(root);
  stderr.write(`Deploying to project "${project}" in ${url}\n`);
  const answer = await uploadVersion(target, project, version, tarball);
  stderr.write(`Server response (${answer.status}):\n`);
  stdout.write(`${answer.body.trimEnd()}\n`);
  const failure = failureOf(answer, target);
  if (failure !== null) throw new DeployError(failure);
}
