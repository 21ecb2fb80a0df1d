export { WorkerHub, WORKERS_LOGGER, type WorkerProcesses } from './worker-hub.js';
export { WorkerPool } from './worker-pool.js';
export { workersNeedTheCli, workersSetting } from './workers-setting.js';
export { setWorkerCommand, workerCommand, type WorkerCommand } from './worker-launch.js';
export { workerLink, workerNumber, workerScheduler, WORKER_SETTINGS } from './worker-runtime.js';
export { WORKER_ENV } from './worker-messages.js';
