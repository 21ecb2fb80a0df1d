/**
 * The deploy targets of seine.cfg, as scrapyd-deploy reads scrapy.cfg:
 * `[deploy]` is the target named `default`, and each `[deploy:<name>]` is a
 * target that inherits the keys `[deploy]` sets and overrides them.
 */
import { DeployError } from './deploy-error.js';

export interface DeployTarget {
  readonly name: string;
  /** The service's base URL, ending in '/'; undefined when not configured. */
  readonly url: string | undefined;
  readonly project: string | undefined;
  readonly username: string | undefined;
  readonly password: string | undefined;
  /** `version` as written: 'GIT', a fixed version, or undefined. */
  readonly version: string | undefined;
}

type Sections = Readonly<Record<string, Readonly<Record<string, string>>>>;

function target(name: string, keys: Readonly<Record<string, string>>): DeployTarget {
  const pick = (key: string): string | undefined => {
    const value = keys[key]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const url = pick('url');
  return {
    name,
    url: url === undefined ? undefined : url.endsWith('/') ? url : `${url}/`,
    project: pick('project'),
    username: pick('username'),
    password: pick('password'),
    version: pick('version'),
  };
}

/** Every target seine.cfg defines, `default` first. */
export function deployTargets(sections: Sections): DeployTarget[] {
  const base = sections['deploy'] ?? {};
  const targets: DeployTarget[] = [];
  if (sections['deploy'] !== undefined) targets.push(target('default', base));
  for (const [section, keys] of Object.entries(sections)) {
    const match = /^deploy:(.+)$/.exec(section);
    if (match !== null) targets.push(target(match[1]!.trim(), { ...base, ...keys }));
  }
  return targets;
}

/** The target `name` (default: `default`), or a DeployError naming the ones there are. */
export function findTarget(sections: Sections, name = 'default'): DeployTarget {
  const targets = deployTargets(sections);
  const found = targets.find((t) => t.name === name);
  if (found !== undefined) return found;
  const known = targets.map((t) => t.name);
  throw new DeployError(
    name === 'default'
      ? 'seine.cfg has no [deploy] section: add one with url = http://localhost:6800/ and project = <name>'
      : `seine.cfg has no [deploy:${name}] section${known.length > 0 ? ` (targets: ${known.join(', ')})` : ''}: add one with its url, or run \`seine deploy -l\``,
  );
}
