/**
 * The registry of `seine` commands. A new command is one file in this folder
 * and one entry here; only commands that work are listed.
 */
import type { SeineCommand } from '../command.js';
import { runspiderCommand } from './runspider.js';
import { settingsCommand } from './settings.js';
import { versionCommand } from './version.js';

export const COMMANDS: readonly SeineCommand[] = [runspiderCommand, settingsCommand, versionCommand];
