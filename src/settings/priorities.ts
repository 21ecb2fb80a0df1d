/**
 * Scrapy's setting priorities. A value replaces another only when its
 * priority is at least as high, so a project's `settings.ts` overrides the
 * defaults and `-s NAME=VALUE` overrides everything, whatever order the
 * layers are loaded in.
 */
export const SETTINGS_PRIORITIES = {
  default: 0,
  command: 10,
  project: 20,
  spider: 30,
  cmdline: 40,
} as const;

export type PriorityName = keyof typeof SETTINGS_PRIORITIES;

/** A priority by name, or any number (components may slot between the named levels). */
export type Priority = PriorityName | number;

export function priorityValue(priority: Priority): number {
  return typeof priority === 'number' ? priority : SETTINGS_PRIORITIES[priority];
}

/** Where a value at this priority came from, for error messages: "(from the project's settings)". */
export function describePrioritySource(priority: number): string {
  switch (priority) {
    case SETTINGS_PRIORITIES.default:
      return "seine's defaults";
    case SETTINGS_PRIORITIES.command:
      return "the command's defaults";
    case SETTINGS_PRIORITIES.project:
      return "the project's settings";
    case SETTINGS_PRIORITIES.spider:
      return "the spider's customSettings";
    case SETTINGS_PRIORITIES.cmdline:
      return 'the command line';
    default:
      return `priority ${priority}`;
  }
}
