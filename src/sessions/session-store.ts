import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { jobdirSetting } from '../scheduler/jobdir-setting.js';
import { JobdirError } from '../scheduler/jobdir-errors.js';
import { makePrivateDirSync, writePrivateFileSync } from '../private-files.js';
import type { Settings } from '../settings/settings.js';
import type { SessionPoolRecord } from './session-pool.js';

export const SESSIONS_FILE = 'sessions.json';

/** What `<JOBDIR>/sessions.json` holds: the pool, and each live session's cookie jar as tough-cookie serializes it. */
export interface SavedSessions {
  pool: SessionPoolRecord;
  cookies: Record<string, object>;
}

/**
 * The session pool in JOBDIR, so that a resumed crawl goes on with the same
 * sessions (a pinned, logged-in session keeps its cookies). The file holds
 * cookies: 0600 in a 0700 folder, as every JOBDIR file (src/private-files.ts);
 * written aside and renamed, so a crash while saving keeps the previous one.
 */
export class SessionStore {
  readonly file: string;

  constructor(readonly jobdir: string) {
    this.file = join(jobdir, SESSIONS_FILE);
  }

  static fromSettings(settings: Settings): SessionStore | null {
    const jobdir = jobdirSetting(settings);
    return jobdir === null ? null : new SessionStore(jobdir);
  }

  load(): SavedSessions | null {
    if (!existsSync(this.file)) return null;
    let saved: unknown;
    try {
      saved = JSON.parse(readFileSync(this.file, 'utf8'));
    } catch (error) {
      throw new JobdirError(`Cannot read the sessions ${this.file}: ${(error as Error).message} (fix or delete the file)`, { cause: error });
    }
    const record = saved as Partial<SavedSessions> | null;
    if (typeof record !== 'object' || record === null || typeof record.pool !== 'object' || !Array.isArray(record.pool?.sessions) || typeof record.cookies !== 'object') {
      throw new JobdirError(`The sessions file ${this.file} is not one seine wrote (fix or delete the file)`);
    }
    return record as SavedSessions;
  }

  save(sessions: SavedSessions): void {
    makePrivateDirSync(this.jobdir);
    const temporary = `${this.file}.tmp`;
    writePrivateFileSync(temporary, JSON.stringify(sessions) + '\n');
    renameSync(temporary, this.file);
  }
}
