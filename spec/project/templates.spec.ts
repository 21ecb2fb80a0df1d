import { describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_TEMPLATE_DIR, SCAFFOLD_DIR, camelCaseName, renderTemplate, spiderTemplateNames } from '../../src/project/templates.js';

describe('renderTemplate', () => {
  it('replaces the given placeholders and leaves TypeScript template literals alone', () => {
    expect(renderTemplate("name = '${name}'; log(`${spider.name}`); ${name}", { name: 'quotes' })).toBe(
      "name = 'quotes'; log(`${spider.name}`); quotes",
    );
  });
});

describe('camelCaseName', () => {
  it('drops underscores and capitalises each word', () => {
    expect(camelCaseName('tutorial')).toBe('Tutorial');
    expect(camelCaseName('my_project_2')).toBe('MyProject2');
    expect(camelCaseName('_private')).toBe('Private');
  });
});

describe('the scaffold folder', () => {
  it('is found next to src/ (and dist/) and holds the project templates', () => {
    expect(existsSync(join(SCAFFOLD_DIR, 'README.md'))).toBe(true);
    expect(existsSync(join(PROJECT_TEMPLATE_DIR, 'seine.cfg.tmpl'))).toBe(true);
  });

  it('offers the spider templates basic, crawl, csvfeed, xmlfeed', () => {
    expect(spiderTemplateNames()).toEqual(['basic', 'crawl', 'csvfeed', 'xmlfeed']);
  });
});
