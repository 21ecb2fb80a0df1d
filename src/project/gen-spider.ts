/**
 * `seine genspider`: one spider file from a template of scaffold/spiders,
 * into the project's NEWSPIDER_MODULE folder, or into the current folder
 * outside a project.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Project } from './project.js';
import { assertInsideProject } from './find-project.js';
import { GenSpiderError } from './project-errors.js';
import type { SpiderLoader } from './spider-loader.js';
import { SPIDER_TEMPLATE_DIR, TEMPLATE_SUFFIX, camelCaseName, renderTemplate, spiderTemplateNames } from './templates.js';

/** Scrapy's sanitize_module_name: dashes and dots become underscores, and the name starts with a letter. */
export function sanitizeModuleName(name: string): string {
  const module = name.replace(/[-.]/g, '_');
  return /^[A-Za-z]/.test(module) ? module : `a${module}`;
}

/** Scrapy's extract_domain: the host (and port) of a URL, or of a bare domain. */
export function extractDomain(url: string): string {
  const withScheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(url) ? url : `http://${url.replace(/^\/+/, '')}`;
  try {
    return new URL(withScheme).host;
  } catch {
    throw new GenSpiderError(`Invalid domain '${url}': give a domain (example.com) or a URL (https://example.com/page)`);
  }
}

export interface GenSpiderOptions {
  readonly name: string;
  readonly domain: string;
  readonly template: string;
  readonly cwd: string;
  /** The project around cwd, with its spiders; null outside a project. */
  readonly project: { readonly project: Project; readonly spiders: SpiderLoader } | null;
}

export interface GeneratedSpider {
  readonly file: string;
  readonly message: string;
}

/** What `genspider --list` prints. */
export function templateList(): string {
  return ['Available templates:', ...spiderTemplateNames().map((name) => `  ${name}`), ''].join('\n');
}

export function genSpider({ name, domain: url, template, cwd, project }: GenSpiderOptions): GeneratedSpider {
  const domain = extractDomain(url);
  const module = sanitizeModuleName(name);
  const botName = project?.project.settings['BOT_NAME'];
  if (project !== null && botName === module) {
    throw new GenSpiderError(`Cannot create a spider with the same name as your project ('${module}'): choose another name`);
  }
  const existing = project?.spiders.find(name);
  if (existing !== undefined) {
    throw new GenSpiderError(`Spider '${name}' already exists in ${existing.file}: choose another name, or edit that file`);
  }
  if (!spiderTemplateNames().includes(template)) {
    throw new GenSpiderError(`Unable to find template: ${template}: use "seine genspider --list" to see all available templates`);
  }
  const newSpiderModule = project?.project.newSpiderModule ?? null;
  const root = project?.project.config.root ?? cwd;
  const dir = newSpiderModule === null ? cwd : join(root, newSpiderModule.includes('/') ? newSpiderModule : newSpiderModule.replaceAll('.', '/'));
  if (newSpiderModule !== null) assertInsideProject(root, dir, newSpiderModule, "NEWSPIDER_MODULE in the project's settings.ts");
  const file = join(dir, `${module}.ts`);
  if (existsSync(file)) throw new GenSpiderError(`${file} already exists: choose another spider name`);
  const projectName = typeof botName === 'string' ? botName : '';
  const vars = {
    project_name: projectName,
    ProjectName: camelCaseName(projectName),
    module,
    name,
    domain,
    // allowedDomains takes host names only (the offsite middleware ignores entries with a port, with a warning).
    hostname: domain.replace(/:\d+$/, ''),
    classname: `${camelCaseName(module)}Spider`,
  };
  const text = readFileSync(join(SPIDER_TEMPLATE_DIR, `${template}.ts${TEMPLATE_SUFFIX}`), 'utf8');
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, renderTemplate(text, vars));
  const created = `Created spider '${name}' using template '${template}'`;
  const message = newSpiderModule === null ? `${created}\n` : `${created} in module:\n  ${relative(root, file)}\n`;
  return { file, message };
}
