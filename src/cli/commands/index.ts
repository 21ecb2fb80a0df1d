/**
 * The registry of `seine` commands. A new command is one file in this folder
 * and one entry here; only commands that work are listed.
 */
import type { SeineCommand } from '../command.js';
import { benchCommand } from './bench.js';
import { checkCommand } from './check.js';
import { crawlCommand } from './crawl.js';
import { demoCommand } from './demo.js';
import { fetchCommand } from './fetch.js';
import { frontierCommand } from './frontier.js';
import { genspiderCommand } from './genspider.js';
import { listCommand } from './list.js';
import { parseCommand } from './parse.js';
import { runspiderCommand } from './runspider.js';
import { settingsCommand } from './settings.js';
import { shellCommand } from './shell.js';
import { startprojectCommand } from './startproject.js';
import { versionCommand } from './version.js';
import { viewCommand } from './view.js';

export const COMMANDS: readonly SeineCommand[] = [
  benchCommand,
  checkCommand,
  crawlCommand,
  demoCommand,
  fetchCommand,
  frontierCommand,
  genspiderCommand,
  listCommand,
  parseCommand,
  runspiderCommand,
  settingsCommand,
  shellCommand,
  startprojectCommand,
  versionCommand,
  viewCommand,
];
