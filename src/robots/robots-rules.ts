import robotsParserModule from 'robots-parser';

interface Robot {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
}

// robots-parser is CommonJS (`module.exports = function`) but its typings
// declare an ES default export, which NodeNext reads as `module.exports.default`;
// at run time the default import is the function itself.
const robotsParser = robotsParserModule as unknown as (url: string, body: string) => Robot;

/**
 * One site's parsed robots.txt. Parsing and path matching are robots-parser's
 * (Google's rules: longest match wins, allow wins a tie, `*` and a final `$`);
 * choosing the group is Protego's, which Scrapy 2.8 uses: a group applies
 * when its lower-cased name occurs anywhere in the lower-cased User-Agent, so
 * `User-agent: seine` matches `seine/0.1 (+https://…)` and
 * `Mozilla/5.0 (compatible; seine/0.1)`; the longest such name wins, `*`
 * counts as a match of length 1, and with no match everything is allowed.
 * robots-parser alone would only compare the text before the first `/`.
 */
export class RobotsRules {
  readonly #robot: Robot;
  /** The groups, in order of appearance: the name Protego matches and robots-parser's key for it. */
  readonly #groups: readonly Group[];
  readonly #groupFor = new Map<string, string | null>();

  /** `robotsUrl` is the robots.txt URL: the rules apply to URLs of its origin only. */
  constructor(robotsUrl: string, body: string) {
    this.#robot = robotsParser(robotsUrl, body);
    this.#groups = groupNames(body);
  }

  /** An empty robots.txt: everything is allowed. */
  static allowAll(robotsUrl: string): RobotsRules {
    return new RobotsRules(robotsUrl, '');
  }

  /** True when `userAgent` may fetch `url` (a URL of another origin is allowed: these rules do not cover it). */
  allowed(url: string, userAgent: string): boolean {
    const group = this.#matchingGroup(userAgent);
    if (group === null) return true;
    return this.#robot.isAllowed(url, group) ?? true;
  }

  /** `Crawl-delay` for the group that applies to `userAgent`, in seconds, or undefined. */
  crawlDelay(userAgent: string): number | undefined {
    const group = this.#matchingGroup(userAgent);
    return group === null ? undefined : this.#robot.getCrawlDelay(group);
  }

  sitemaps(): string[] {
    return this.#robot.getSitemaps();
  }

  #matchingGroup(userAgent: string): string | null {
    let group = this.#groupFor.get(userAgent);
    if (group === undefined) {
      group = protegoMatch(this.#groups, userAgent);
      this.#groupFor.set(userAgent, group);
    }
    return group;
  }
}

/**
 * A `User-agent` group: `name` is the value lower-cased, as Protego matches it (whole: `seine/1.0` applies to
 * `seine/1.0 …` but not to `seine/0.1`); `key` is robots-parser's key for its rules (cut at the first `/`).
 */
interface Group {
  name: string;
  key: string;
}

function protegoMatch(groups: readonly Group[], userAgent: string): string | null {
  const robotName = userAgent.trim().toLowerCase();
  let best: string | null = null;
  let bestScore = 0;
  for (const { name, key } of groups) {
    // Protego also files `User-agent: bot*` under `bot`.
    const token = name === '*' ? '*' : name.replaceAll('*', '');
    const score = token === '*' ? 1 : token !== '' && robotName.includes(token) ? token.length : 0;
    if (score > bestScore) {
      best = key;
      bestScore = score;
    }
  }
  return best;
}

/**
 * The `User-agent` values. Two names robots-parser files under one key (`seine/1.0`, `seine/2.0`) share their
 * rules; a name with nothing before its `/` has no key robots-parser can be asked for, and is left out.
 */
function groupNames(body: string): Group[] {
  const groups: Group[] = [];
  for (const rawLine of body.split(/\r\n|\r|\n/)) {
    const line = rawLine.split('#', 1)[0] ?? '';
    const colon = line.indexOf(':');
    if (colon < 0 || line.slice(0, colon).trim().toLowerCase() !== 'user-agent') continue;
    const name = line.slice(colon + 1).trim().toLowerCase();
    const slash = name.indexOf('/');
    const key = (slash > -1 ? name.slice(0, slash) : name).trim();
    if (key !== '' && !groups.some((group) => group.name === name)) groups.push({ name, key });
  }
  return groups;
}
