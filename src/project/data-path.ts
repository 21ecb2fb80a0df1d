/**
 * Where seine keeps data between runs (the HTTP cache), as Scrapy's
 * `data_path`: a relative path goes under the project's `.seine/` folder,
 * next to the nearest seine.cfg, or under `.seine/` in the current folder
 * outside a project; an absolute path is kept as it is.
 */
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { findProjectConfigFile } from './find-project.js';

/** The name of the data folder (Scrapy's `.scrapy`). */
export const DATA_DIR_NAME = '.seine';

/** The data folder of the project around `cwd`, or null outside a project. */
export function projectDataDir(cwd: string = process.cwd()): string | null {
  const configFile = findProjectConfigFile(cwd);
  return configFile === null ? null : join(dirname(configFile), DATA_DIR_NAME);
}

/** `path` inside the data folder (absolute: as given), resolved against `cwd`. */
export function dataPath(path: string, cwd: string = process.cwd()): string {
  if (isAbsolute(path)) return path;
  return resolve(cwd, projectDataDir(cwd) ?? DATA_DIR_NAME, path);
}
