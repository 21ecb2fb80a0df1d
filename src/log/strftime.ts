/**
 * The `strftime` directives LOG_DATEFORMAT may use, in local time and the C
 * locale, as Python's logging does through `time.strftime`. A directive not
 * listed here is copied through unchanged (glibc does the same).
 */
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
];

function pad(value: number, width = 2, fill = '0'): string {
  return String(value).padStart(width, fill);
}

function dayOfYear(date: Date): number {
  const start = new Date(date.getFullYear(), 0, 1);
  // Calendar dates, not elapsed milliseconds, so a DST change cannot shift the count.
  const utcDate = Date.UTC(date.getFullYear(), date.getMonth(), date.getDate());
  return Math.round((utcDate - Date.UTC(start.getFullYear(), 0, 1)) / 86_400_000) + 1;
}

function hour12(date: Date): number {
  return date.getHours() % 12 === 0 ? 12 : date.getHours() % 12;
}

function utcOffset(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
}

function zoneName(date: Date): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' }).formatToParts(date);
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? '';
}

function directive(date: Date, letter: string): string | undefined {
  const day = DAYS[date.getDay()] ?? '';
  const month = MONTHS[date.getMonth()] ?? '';
  switch (letter) {
    case 'a': return day.slice(0, 3);
    case 'A': return day;
    case 'b': case 'h': return month.slice(0, 3);
    case 'B': return month;
    case 'c': return `${day.slice(0, 3)} ${month.slice(0, 3)} ${formatDate(date, '%e %H:%M:%S %Y')}`;
    case 'd': return pad(date.getDate());
    case 'D': case 'x': return formatDate(date, '%m/%d/%y');
    case 'e': return pad(date.getDate(), 2, ' ');
    case 'F': return formatDate(date, '%Y-%m-%d');
    case 'H': return pad(date.getHours());
    case 'I': return pad(hour12(date));
    case 'j': return pad(dayOfYear(date), 3);
    case 'm': return pad(date.getMonth() + 1);
    case 'M': return pad(date.getMinutes());
    case 'p': return date.getHours() < 12 ? 'AM' : 'PM';
    case 'S': return pad(date.getSeconds());
    case 'T': case 'X': return formatDate(date, '%H:%M:%S');
    case 'u': return String(date.getDay() === 0 ? 7 : date.getDay());
    case 'w': return String(date.getDay());
    case 'y': return pad(date.getFullYear() % 100);
    case 'Y': return String(date.getFullYear());
    case 'z': return utcOffset(date);
    case 'Z': return zoneName(date);
    case '%': return '%';
    default: return undefined;
  }
}

/** `formatDate(new Date(2024, 0, 2, 3, 4, 5), '%Y-%m-%d %H:%M:%S')` → '2024-01-02 03:04:05'. */
export function formatDate(date: Date, format: string): string {
  return format.replace(/%(.)/gs, (whole, letter: string) => directive(date, letter) ?? whole);
}
