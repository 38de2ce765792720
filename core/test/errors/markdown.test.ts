import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { ERROR_CATALOG, renderErrorCatalogMarkdown } from '../../src/index.js';

describe('docs/errors.md', () => {
  it('documents every catalog code with its remediation', () => {
    const markdown = renderErrorCatalogMarkdown();
    for (const [code, entry] of Object.entries(ERROR_CATALOG)) {
      expect(markdown).to.contain(`## ${code}\n\n${entry.meaning}`);
      expect(markdown).to.contain(`**Remediation**: ${entry.remediation}`);
    }
  });

  it('is the committed rendering of the catalog (regenerate with `npm run docs:generate`)', () => {
    expect(readFileSync(new URL('../../../../docs/errors.md', import.meta.url), 'utf8')).to.equal(
      renderErrorCatalogMarkdown(),
    );
  });
});
