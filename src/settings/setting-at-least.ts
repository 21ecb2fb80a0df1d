import type { Settings } from './settings.js';
import { SettingsError } from './settings-error.js';

/**
 * Throws a SettingsError when a numeric setting is below `min` (or NaN),
 * naming the value, where it came from, and `hint` (what the setting does at
 * its lowest sensible value). Returns the value.
 */
export function settingAtLeast(settings: Settings, name: string, value: number, min: number, hint: string): number {
  if (value >= min) return value;
  const source = settings.getSource(name);
  throw new SettingsError(`Setting ${name} must be at least ${min}, got ${value}${source === undefined ? '' : ` (from ${source})`}: ${hint}`);
}
