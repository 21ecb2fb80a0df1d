export type { ObjectStore, PutOptions, StoredObject } from './object-store.js';
export { StoreError } from './store-error.js';
export { FolderStore } from './folder-store.js';
export { putWithRetries, type RetryingPutOptions } from './retrying-put.js';
export { isKnownStoreUri, openStore, uriScheme, SUPPORTED_STORE_SCHEMES, type StoreFactory, type StoreOptions, type StoreSettings } from './store-registry.js';
