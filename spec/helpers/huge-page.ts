/** An HTML page of `count` links `/p/0` … (text `link 0` …), one a line. */
export function hugeLinksPage(count: number): string {
  const parts = ['<html><body>'];
  for (let i = 0; i < count; i++) parts.push(`<a href="/p/${i}">link ${i}</a>`);
  parts.push('</body></html>');
  return parts.join('\n');
}
