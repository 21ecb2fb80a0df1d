export type { ObjectStore, PutOptions, StoredObject } from './object-store.js';
export { StoreError } from './store-error.js';
export { FolderStore } from './folder-store.js';
export { putWithRetries, type RetryingPutOptions } from './retrying-put.js';
export { isKnownStoreUri, openStore, uriScheme, type StoreFactory, type StoreSettings } from './store-registry.js';
