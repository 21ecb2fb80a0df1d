import { spiderClassName } from '../contracts/spider-brand.js';
import type { Settings } from '../settings/settings.js';
import { SettingsError } from '../settings/settings-error.js';
import { BUILTIN_MONITORS, FieldCoverageMonitor } from './builtin-monitors.js';
import type { Monitor, MonitorClass } from './monitor.js';

/** One monitor as configured: the name its report uses, and the instance. */
export interface ConfiguredMonitor {
  name: string;
  monitor: Monitor;
}

export interface PeriodicMonitors {
  seconds: number;
  monitors: ConfiguredMonitor[];
}

type MonitorMap = Record<string, unknown> | Map<string | MonitorClass, unknown>;

/** A spider's own monitor classes (`static monitors = [PriceMonitor]`), run at close with their MONITORS options, if any. */
export function spiderMonitorClasses(spiderClass: unknown): MonitorClass[] {
  const own = (spiderClass as { monitors?: unknown } | null)?.monitors;
  if (own === undefined || own === null) return [];
  if (!Array.isArray(own) || !own.every(isMonitorClass)) {
    throw new SettingsError(`${spiderClassName(spiderClass as Function)}.monitors must be a list of monitor classes (each with a check(run) method), e.g. static monitors = [PriceMonitor]`);
  }
  return own as MonitorClass[];
}

/**
 * MONITORS as monitor instances, in the order given. Keys are built-in
 * names, names of the spider's own monitor classes, or (in a Map) classes;
 * a value is the monitor's options (`{}`/`true` for its defaults, `null` to
 * turn it off). An unknown name or a bad option is one SettingsError line.
 */
export function configuredMonitors(setting: string, value: MonitorMap, spiderClasses: readonly MonitorClass[]): ConfiguredMonitor[] {
  const byName = new Map<string, MonitorClass>([...BUILTIN_MONITORS, ...spiderClasses.map((cls) => [cls.name, cls] as const)]);
  const out: ConfiguredMonitor[] = [];
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  for (const [key, options] of entries) {
    if (options === null || options === false) continue;
    const cls = typeof key === 'function' ? key : byName.get(key);
    const name = typeof key === 'function' ? key.name : key;
    if (cls === undefined || !isMonitorClass(cls)) {
      throw new SettingsError(`${setting}: unknown monitor '${name}': use one of ${[...byName.keys()].join(', ')}, or a class with a check(run) method (in the spider's static monitors, or as a key of a Map)`);
    }
    if (options !== true && (typeof options !== 'object' || Array.isArray(options))) {
      throw new SettingsError(`${setting}: the options of ${name} must be an object, e.g. { ${name}: {} }, got ${JSON.stringify(options)}`);
    }
    out.push({ name, monitor: new cls(options === true ? {} : (options as Record<string, unknown>)) });
  }
  return out;
}

/** MONITORS at close, plus the spider's own classes that MONITORS does not name (with no options). */
export function closeMonitors(settings: Settings, spiderClasses: readonly MonitorClass[]): ConfiguredMonitor[] {
  const configured = configuredMonitors('MONITORS', monitorMap(settings, 'MONITORS'), spiderClasses);
  const named = new Set(entryNames(monitorMap(settings, 'MONITORS')));
  for (const cls of spiderClasses) if (!named.has(cls.name)) configured.push({ name: cls.name, monitor: new cls({}) });
  return configured;
}

/** MONITORS_PERIODIC `{ seconds, monitors }`, or null when it names no monitor. */
export function periodicMonitors(settings: Settings, spiderClasses: readonly MonitorClass[]): PeriodicMonitors | null {
  const value = monitorMap(settings, 'MONITORS_PERIODIC');
  if (value instanceof Map || Object.keys(value).length === 0) return null;
  const shape = "write it as { seconds: 60, monitors: { ErrorCountMonitor: { max: 10 } } }";
  for (const key of Object.keys(value)) if (key !== 'seconds' && key !== 'monitors') throw new SettingsError(`MONITORS_PERIODIC has no key '${key}': ${shape}`);
  const seconds = value['seconds'];
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) {
    throw new SettingsError(`MONITORS_PERIODIC.seconds must be a number of seconds > 0, got ${JSON.stringify(seconds)}: ${shape}`);
  }
  const monitors = value['monitors'];
  if (typeof monitors !== 'object' || monitors === null || Array.isArray(monitors)) throw new SettingsError(`MONITORS_PERIODIC.monitors must name monitors with their options: ${shape}`);
  const configured = configuredMonitors('MONITORS_PERIODIC', monitors as MonitorMap, spiderClasses);
  return configured.length === 0 ? null : { seconds, monitors: configured };
}

/** Fields FieldCoverageMonitor asks about, counted on each scraped item only when it is configured. */
export function coverageFields(monitors: readonly ConfiguredMonitor[]): string[] {
  const fields = new Set<string>();
  for (const { monitor } of monitors) if (monitor instanceof FieldCoverageMonitor) for (const field of Object.keys(monitor.fields)) fields.add(field);
  return [...fields];
}

/** A Map keeps class keys (settings.get would turn them into text); JSON from `-s` is read as a dict. */
function monitorMap(settings: Settings, name: 'MONITORS' | 'MONITORS_PERIODIC'): MonitorMap {
  const raw = settings.getRaw(name);
  if (raw instanceof Map) return raw as MonitorMap;
  return (settings.get(name) ?? {}) as Record<string, unknown>;
}

function entryNames(value: MonitorMap): string[] {
  const keys = value instanceof Map ? [...value.keys()] : Object.keys(value);
  return keys.map((key) => (typeof key === 'function' ? key.name : key));
}

function isMonitorClass(value: unknown): value is MonitorClass {
  return typeof value === 'function' && typeof (value as { prototype?: { check?: unknown } }).prototype?.check === 'function';
}
