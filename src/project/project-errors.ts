import { SeineError } from '../errors/seine-error.js';

/** A project-only command (crawl, list) was run outside any project. */
export class NotInProjectError extends SeineError {
  static readonly code = 'SEINE_NOT_IN_PROJECT';
  constructor(readonly cwd: string) {
    super(
      NotInProjectError.code,
      'No seine.cfg found here or in any parent directory: run `seine startproject <name>` or cd into a project',
    );
  }
}

/** seine.cfg is unreadable, or its `[settings] default` names no settings file. */
export class ProjectConfigError extends SeineError {
  static readonly code = 'SEINE_PROJECT_CONFIG';
  constructor(message: string, options?: { cause?: unknown }) {
    super(ProjectConfigError.code, message, options);
  }
}

function notFoundMessage(name: string, known: readonly string[], failed: readonly string[]): string {
  const unloaded = failed.length === 0 ? '' : `; it may be in a file that could not be loaded: ${failed.join(', ')} (see the WARNING above)`;
  if (known.length === 0 && failed.length > 0) return `Spider not found: ${name} (no spider loaded)${unloaded}`;
  const names = known.length === 0 ? 'the project has no spiders yet: create one with `seine genspider <name> <domain>`' : `available spiders: ${known.join(', ')}`;
  return `Spider not found: ${name} (${names})${unloaded}`;
}

/** `seine crawl <name>` with a name no spider of the project has; `failed` are the spider files that could not be loaded. */
export class SpiderNotFoundError extends SeineError {
  static readonly code = 'SEINE_SPIDER_NOT_FOUND';
  constructor(readonly spiderName: string, known: readonly string[], failed: readonly string[] = []) {
    super(SpiderNotFoundError.code, notFoundMessage(spiderName, known, failed));
  }
}

/** Two spider classes of one project share a name. */
export class DuplicateSpiderError extends SeineError {
  static readonly code = 'SEINE_DUPLICATE_SPIDER';
  constructor(readonly spiderName: string, files: readonly string[]) {
    super(
      DuplicateSpiderError.code,
      `Several spiders are named '${spiderName}': ${files.join(' and ')}; give each spider its own static name`,
    );
  }
}

/** `startproject` with a name that is not an identifier, or into a folder that holds a project or files. */
export class StartProjectError extends SeineError {
  static readonly code = 'SEINE_STARTPROJECT';
  constructor(message: string) {
    super(StartProjectError.code, message);
  }
}

/** `genspider` refused: unknown template, a spider or file of that name exists, the project's own name. */
export class GenSpiderError extends SeineError {
  static readonly code = 'SEINE_GENSPIDER';
  constructor(message: string) {
    super(GenSpiderError.code, message);
  }
}
