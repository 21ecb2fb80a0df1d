#!/usr/bin/env bash
# Installs Crawlee 3.18 (the `crawlee` package, and @crawlee/cheerio, which
# bench/crawl/crawlee-spider.mjs imports CheerioCrawler from; it brings cheerio)
# for `npm run bench:crawl` into bench/crawl/.peers/crawlee/, a
# git-ignored folder with a package.json of its own: Crawlee is a peer the
# benchmark measures seine against, never a dependency of seine.
#
# bench:crawl runs this when Crawlee is missing there; run it by hand to
# install or repair it. Exits 0 when `import('@crawlee/cheerio')` works from that
# folder afterwards and writes the installed version to .peers/crawlee/.installed;
# otherwise exits 1 with npm's last error line on stderr.
set -euo pipefail
# bench:blocking's Crawlee crawls script-written pages with PlaywrightCrawler (@crawlee/playwright and the
# `playwright` package, the same 1.65 series as seine's playwright-core). No browser is downloaded: both
# crawlers launch Debian's chromium (bench/blocking/crawlee-guarded.mjs points Crawlee at it).
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

here=$(cd "$(dirname "$0")" && pwd)
dir="$here/.peers/crawlee"
mkdir -p "$dir"
rm -f "$dir/.installed"

cat >"$dir/package.json" <<'EOF'
{
  "name": "seine-bench-crawlee-peer",
  "private": true,
  "description": "Crawlee for seine's crawl benchmark (bench/crawl/install-crawlee.sh writes this file)",
  "type": "module",
  "dependencies": {
    "crawlee": "3.18.x",
    "@crawlee/cheerio": "3.18.x",
    "@crawlee/playwright": "3.18.x",
    "playwright": "1.65.x"
  }
}
EOF

cd "$dir"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# No install scripts (CheerioCrawler needs none; seine's own package.json allows none either), and a
# registry that cannot be reached fails within a minute or so instead of npm's default 5-minute timeouts.
if ! npm install --no-audit --no-fund --ignore-scripts --fetch-retries=1 --fetch-timeout=30000 --loglevel=error >"$log" 2>&1; then
  echo "install-crawlee: npm install failed: $(grep -v '^npm warn' "$log" | grep -m1 -E 'ERR|error' || tail -n 1 "$log")" >&2
  exit 1
fi
version=$(node --input-type=module -e "
  const m = await import('@crawlee/cheerio');
  if (typeof m.CheerioCrawler !== 'function') throw new Error('@crawlee/cheerio has no CheerioCrawler');
  const { readFileSync } = await import('node:fs');
  process.stdout.write(JSON.parse(readFileSync('node_modules/@crawlee/cheerio/package.json', 'utf8')).version);
" 2>"$log") || {
  echo "install-crawlee: Crawlee was installed but does not load: $(tail -n 1 "$log")" >&2
  exit 1
}
echo "$version" >"$dir/.installed"
echo "install-crawlee: Crawlee $version (@crawlee/cheerio) in $dir"
