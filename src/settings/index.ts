export { Settings, type SettingKey } from './settings.js';
export { SETTINGS_PRIORITIES, priorityValue, type Priority, type PriorityName } from './priorities.js';
export { DEFAULT_SETTINGS } from './default-settings.js';
export {
  SETTING_KINDS,
  isSettingName,
  type ComponentOrders,
  type FeedOptions,
  type SettingInput,
  type SettingKind,
  type SettingName,
  type SettingValue,
  type SettingsInput,
  type SettingsSchema,
} from './schema.js';
export { parseSetOption, applySetOptions, type SetOption } from './set-option.js';
export { SettingsError, FrozenSettingsError, SetOptionError } from './settings-error.js';
export { unknownSettingWarnings, closestSetting } from './unknown-settings.js';
export { settingAtLeast } from './setting-at-least.js';
