import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { CONFIG_SCHEMA } from '../../src/index.js';

describe('docs/config.schema.json', () => {
  it('is the published copy of CONFIG_SCHEMA (regenerate with `npm run docs:generate`)', () => {
    const published = JSON.parse(
      readFileSync(new URL('../../../../docs/config.schema.json', import.meta.url), 'utf8'),
    ) as unknown;
    expect(published).to.deep.equal(JSON.parse(JSON.stringify(CONFIG_SCHEMA)));
  });
});
