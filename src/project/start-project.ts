/**
 * `seine startproject`: copies scaffold/project into a new folder, renaming
 * `module` to the project's name and filling in each `.tmpl` file.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SEINE_VERSION } from '../version.js';
import { PROJECT_CONFIG_FILE } from './find-project.js';
import { StartProjectError } from './project-errors.js';
import { PROJECT_TEMPLATE_DIR, TEMPLATE_SUFFIX, camelCaseName, renderTemplate } from './templates.js';

/** Scrapy's rule: the name becomes a folder and a prefix of class names. */
export const PROJECT_NAME = /^[_a-zA-Z]\w*$/;

export interface StartProjectOptions {
  readonly name: string;
  /** The folder as the user typed it; default: the name. */
  readonly dir?: string;
  readonly cwd: string;
}

export interface StartedProject {
  readonly projectDir: string;
  readonly templateDir: string;
  /** What the command prints: where the project is and the next steps. */
  readonly message: string;
}

/** seine's own folder: scaffold/ sits at its root. */
const SEINE_ROOT = resolve(PROJECT_TEMPLATE_DIR, '..', '..');

/**
 * How the new project depends on seine: the version range when this seine is
 * a copy installed from the registry (it lives in a node_modules folder), else
 * the folder itself (`file:…`): a seine run from a checkout or a tarball is not
 * on the registry, and `npm install` could not resolve `^0.1.0`.
 */
export function seineDependency(root: string = SEINE_ROOT, version: string = SEINE_VERSION): string {
  return root.split(/[\\/]/).includes('node_modules') ? `^${version}` : `file:${root}`;
}

/** The rxjs range seine itself depends on: a project's streams code imports rxjs, and gets the same copy. */
function rxjsRange(root: string = SEINE_ROOT): string {
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    return pkg.dependencies?.rxjs ?? '^7.8.0';
  } catch {
    return '^7.8.0';
  }
}

/** npm package names are lower case and may not start with '_' or '.'. */
function packageName(name: string): string {
  return name.toLowerCase().replace(/^_+/, '') || 'project';
}

function copyTemplates(from: string, to: string, moduleName: string, vars: Readonly<Record<string, string>>): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    if (entry.isDirectory()) {
      copyTemplates(source, join(to, entry.name === 'module' ? moduleName : entry.name), moduleName, vars);
    } else if (entry.name.endsWith(TEMPLATE_SUFFIX)) {
      writeFileSync(join(to, entry.name.slice(0, -TEMPLATE_SUFFIX.length)), renderTemplate(readFileSync(source, 'utf8'), vars));
    } else {
      writeFileSync(join(to, entry.name), readFileSync(source));
    }
  }
}

export function startProject({ name, dir, cwd }: StartProjectOptions): StartedProject {
  const typedDir = dir ?? name;
  const projectDir = resolve(cwd, typedDir);
  if (existsSync(join(projectDir, PROJECT_CONFIG_FILE))) {
    throw new StartProjectError(`${PROJECT_CONFIG_FILE} already exists in ${projectDir}: choose another directory`);
  }
  if (!PROJECT_NAME.test(name)) {
    const suggestion = name.replace(/\W/g, '_').replace(/^(\d)/, '_$1');
    throw new StartProjectError(
      `Invalid project name '${name}': project names must begin with a letter and contain only letters, numbers and underscores (e.g. '${suggestion}')`,
    );
  }
  if (existsSync(projectDir) && (!statSync(projectDir).isDirectory() || readdirSync(projectDir).length > 0)) {
    throw new StartProjectError(`Directory ${projectDir} already exists and is not empty: choose another name or directory`);
  }
  const vars = {
    project_name: name,
    ProjectName: camelCaseName(name),
    package_name: packageName(name),
    seine_version: SEINE_VERSION,
    seine_dependency: JSON.stringify(seineDependency()).slice(1, -1),
    rxjs_range: rxjsRange(),
  };
  copyTemplates(PROJECT_TEMPLATE_DIR, projectDir, name, vars);
  const message = [
    `New Seine project '${name}', using template directory '${PROJECT_TEMPLATE_DIR}', created in:`,
    `    ${projectDir}`,
    '',
    'You can start your first spider with:',
    `    cd ${typedDir}`,
    '    seine genspider example example.com',
    '',
  ].join('\n');
  return { projectDir, templateDir: PROJECT_TEMPLATE_DIR, message };
}
