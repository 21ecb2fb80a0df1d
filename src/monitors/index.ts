export { Monitors, MONITORS_FAILED_STAT } from './monitors-extension.js';
export { MonitorFailure, fail, pass, type Monitor, type MonitorClass, type MonitorOutcome, type MonitorResult, type MonitorRun } from './monitor.js';
export { BanRateMonitor, ErrorCountMonitor, FieldCoverageMonitor, FinishReasonMonitor, ItemCountMonitor, RetryRateMonitor, ValidationMonitor, BUILTIN_MONITORS } from './builtin-monitors.js';
export type { MonitorReport } from './monitor-report.js';
