#!/usr/bin/env bash
# Installs from Debian what seine's tests need beyond the npm packages, each
# only when it is missing, with one line of output per package:
#   chromium        spec/shell/view-in-chromium.spec.ts opens view()'s file in it
#   python3-scrapy  Scrapy 2.8, the oracle some tests and benchmarks compare with
#   redis-server    the shared frontier's tests start one on a free loopback port
#   python3-pyftpdlib, python3-openssl   the FTP/FTPS test server (spec/helpers/ftp-server.ts)
#   openssh-server, openssh-sftp-server  the SFTP test server (spec/helpers/sftp-server.ts)
#   python3-pil, python3-botocore        Scrapy's ImagesPipeline and S3 storage as oracles
#   tinyproxy, dante-server              the HTTP and SOCKS5 test proxies (spec/helpers/tinyproxy.ts, dante.ts)
# `npm test` runs this first (the "pretest" script). It always exits 0: a
# package it cannot install makes the test that needs it fail with a message
# that says so, and the other tests still run.
set -u

have_chromium() { command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; }
have_scrapy() { [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import scrapy' >/dev/null 2>&1; }
have_redis() { command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ]; }
have_python_module() { [ -x /usr/bin/python3 ] && /usr/bin/python3 -c "import $1" >/dev/null 2>&1; }
have() {
  case $1 in
    chromium) have_chromium ;;
    python3-scrapy) have_scrapy ;;
    redis-server) have_redis ;;
    python3-pyftpdlib) have_python_module pyftpdlib ;;
    python3-openssl) have_python_module OpenSSL ;;
    python3-pil) have_python_module PIL ;;
    python3-botocore) have_python_module botocore ;;
    openssh-server) [ -x /usr/sbin/sshd ] ;;
    openssh-sftp-server) [ -x /usr/lib/openssh/sftp-server ] ;;
    tinyproxy) command -v tinyproxy >/dev/null 2>&1 || [ -x /usr/bin/tinyproxy ] ;;
    dante-server) command -v danted >/dev/null 2>&1 || [ -x /usr/sbin/danted ] ;;
  esac
}

missing=()
for package in chromium python3-scrapy redis-server python3-pyftpdlib python3-openssl openssh-server openssh-sftp-server python3-pil python3-botocore tinyproxy dante-server; do
  have "$package" && echo "$package: already present" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  wanted=()
  for package in "${missing[@]}"; do
    case $package in
      chromium) wanted+=("Chromium as 'chromium' on PATH") ;;
      python3-scrapy) wanted+=("Scrapy 2.8 for /usr/bin/python3") ;;
      redis-server) wanted+=("redis-server (Redis 6.2 or later) on PATH") ;;
      python3-*) wanted+=("$package for /usr/bin/python3") ;;
      openssh-server) wanted+=("OpenSSH's sshd at /usr/sbin/sshd") ;;
      openssh-sftp-server) wanted+=("OpenSSH's sftp-server") ;;
      tinyproxy) wanted+=("tinyproxy on PATH") ;;
      dante-server) wanted+=("dante-server's danted") ;;
    esac
  done
  echo "install-test-deps: apt-get not found; install by hand: $(IFS=,; echo "${wanted[*]}" | sed 's/,/, /g')"
  exit 0
fi

# Root installs directly; otherwise sudo, which may ask for a password only
# when someone is at a terminal to type it (CI has no standard input).
as_root=()
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then
  if [ -t 0 ]; then as_root=(sudo); else as_root=(sudo -n); fi
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
apt_install() {
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$1" >"$log" 2>&1
}
updated=no
for package in "${missing[@]}"; do
  # A machine's package lists may be missing or stale: refresh them once, and only when an install fails without it.
  if ! apt_install "$package" && [ "$updated" = no ]; then
    updated=yes
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >"$log" 2>&1 && apt_install "$package"
  fi
  if have "$package"; then
    echo "$package: installed"
  else
    reason=$(grep -E '^(E|W):' "$log" | tail -n 1)
    echo "$package: could not install${reason:+ ($reason)}; install it by hand: apt-get install $package"
  fi
done
exit 0
