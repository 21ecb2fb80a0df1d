/**
 * Reading the stores' settings (AWS_*, FTP_*, SFTP_*, STORE_TIMEOUT) from
 * whatever settings object the caller hands openStore(): the crawl's
 * Settings gives typed values, which these only check.
 */
import { DEFAULT_SETTINGS } from '../settings/default-settings.js';
import type { StoreSettings } from './store-registry.js';

/** A non-empty string setting, or undefined. */
export function stringSetting(settings: StoreSettings, name: string): string | undefined {
  const value = settings.get(name);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function boolSetting(settings: StoreSettings, name: string, fallback: boolean): boolean {
  const value = settings.get(name);
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string' && value !== '') return !/^(0|false)$/i.test(value.trim());
  return fallback;
}

/** STORE_TIMEOUT in milliseconds: how long connecting, or a transfer standing still, may take. */
export function storeTimeoutMs(settings: StoreSettings): number {
  const value = settings.get('STORE_TIMEOUT');
  const seconds = typeof value === 'number' && value > 0 ? value : DEFAULT_SETTINGS.STORE_TIMEOUT;
  return Math.round(seconds * 1000);
}
