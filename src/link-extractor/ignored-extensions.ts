/**
 * Scrapy 2.8's IGNORED_EXTENSIONS: links to these are not followed unless a
 * LinkExtractor is given its own `denyExtensions`. An extension matches
 * when the URL's path ends with it (so 'tar.gz' works).
 */
export const IGNORED_EXTENSIONS: readonly string[] = Object.freeze([
  // archives
  '7z', '7zip', 'bz2', 'rar', 'tar', 'tar.gz', 'xz', 'zip',
  // images
  'mng', 'pct', 'bmp', 'gif', 'jpg', 'jpeg', 'png', 'pst', 'psp', 'tif', 'tiff', 'ai', 'drw', 'dxf', 'eps', 'ps', 'svg', 'cdr', 'ico',
  // audio
  'mp3', 'wma', 'ogg', 'wav', 'ra', 'aac', 'mid', 'au', 'aiff',
  // video
  '3gp', 'asf', 'asx', 'avi', 'mov', 'mp4', 'mpg', 'qt', 'rm', 'swf', 'wmv', 'm4a', 'm4v', 'flv', 'webm',
  // office suites
  'xls', 'xlsx', 'ppt', 'pptx', 'pps', 'doc', 'docx', 'odt', 'ods', 'odg', 'odp',
  // other
  'css', 'pdf', 'exe', 'bin', 'rss', 'dmg', 'iso', 'apk',
]);
