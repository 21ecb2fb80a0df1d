/**
 * yargs reports problems with its own keys ("Unknown arguments: foo-bar,
 * fooBar"); users should see the option as they typed it. These map yargs'
 * English messages (the CLI pins yargs' locale to 'en') to a UsageError that
 * quotes the argv tokens.
 */
import { UsageError } from './usage-error.js';

function optionKey(token: string): string {
  return token.replace(/^--?/, '').split('=')[0] ?? '';
}

function camelCase(key: string): string {
  return key.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** The token that yargs' key `name` came from, as typed up to any '='. */
function findOptionToken(argv: readonly string[], name: string): string | undefined {
  for (const token of argv) {
    if (token === '--') break;
    if (!token.startsWith('-') || token === '-') continue;
    if (token.startsWith('--')) {
      const key = optionKey(token);
      if (key === name || camelCase(key) === name || key === `no-${name}`) return token.split('=')[0];
    } else if (name.length === 1 && optionKey(token).includes(name)) {
      return `-${name}`;
    }
  }
  return undefined;
}

function quoteList(items: readonly string[]): string {
  return items.map((item) => `'${item}'`).join(', ');
}

function unknownArguments(argv: readonly string[], names: readonly string[], command: string | undefined): UsageError {
  const options = new Set<string>();
  const positionals: string[] = [];
  for (const name of names) {
    const token = findOptionToken(argv, name);
    if (token === undefined) positionals.push(name);
    else options.add(token);
  }
  const problems: string[] = [];
  if (options.size > 0) problems.push(`unknown option${options.size > 1 ? 's' : ''} ${quoteList([...options])}`);
  if (positionals.length > 0) {
    problems.push(`unexpected argument${positionals.length > 1 ? 's' : ''} ${quoteList(positionals)}`);
  }
  return new UsageError(problems.join('; '), command === undefined ? {} : { command });
}

/** `seine crawl` without its spider: what to type, not yargs' "not enough non-option arguments". */
function missingPositionals(command: string, positionals: string, message: string): UsageError {
  const given = Number(/got (\d+)/.exec(message)?.[1] ?? 0);
  const required = positionals.split(' ').filter((word) => word.startsWith('<')).slice(given);
  const hint = command === 'crawl' || command === 'check' ? ' (seine list shows the spiders of the project)' : '';
  return new UsageError(`missing ${required.join(' ')}: write seine ${command} ${positionals}${hint}`, { command });
}

export function usageErrorFromYargs(message: string, argv: readonly string[], command: string | undefined, positionals?: string): UsageError {
  const context = command === undefined ? {} : { command };
  if (command !== undefined && positionals !== undefined && /^Not enough non-option arguments/.test(message)) return missingPositionals(command, positionals, message);
  const unknown = /^Unknown arguments?: (.*)$/s.exec(message);
  if (unknown !== null) return unknownArguments(argv, (unknown[1] ?? '').split(', '), command);
  const missingValue = /^Not enough arguments following: (.*)$/s.exec(message);
  if (missingValue !== null) {
    const name = missingValue[1] ?? '';
    const token = findOptionToken(argv, name) ?? (name.length === 1 ? `-${name}` : `--${name}`);
    return new UsageError(`option '${token}' needs a value`, context);
  }
  const oneLine = message.replace(/\s*\n\s*/g, ' ').trim();
  return new UsageError(oneLine.charAt(0).toLowerCase() + oneLine.slice(1), context);
}
