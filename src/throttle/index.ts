export { DownloadSlots, DOWNLOAD_SLOT, RETRY_DELAY_MS, type DownloadSlotsOptions } from './download-slots.js';
export { DownloadSlot } from './download-slot.js';
export { urlHostname } from './slot-key.js';
export { readSlotSettings, rateIntervalMs, type SlotOverrides } from './slot-settings.js';
export type { SharedRate } from './shared-rate.js';
