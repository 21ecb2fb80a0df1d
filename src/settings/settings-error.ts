import { SeineError } from '../errors/seine-error.js';

/**
 * A setting holds a value that cannot be read as the type it needs. The
 * message names the setting, the value, the expected type and where the
 * value came from.
 */
export class SettingsError extends SeineError {
  static readonly code = 'SEINE_BAD_SETTING';

  constructor(message: string, options?: { cause?: unknown }) {
    super(SettingsError.code, message, options);
  }
}

/** Something tried to change settings after they were frozen (a crawl has started). */
export class FrozenSettingsError extends SeineError {
  static readonly code = 'SEINE_SETTINGS_FROZEN';

  constructor(message: string) {
    super(FrozenSettingsError.code, message);
  }
}

/** A `-s` argument that is not `NAME=VALUE`. The CLI reports it as a usage error (exit status 2). */
export class SetOptionError extends SeineError {
  static readonly code = 'SEINE_BAD_SET_OPTION';

  constructor(message: string) {
    super(SetOptionError.code, message);
  }
}
