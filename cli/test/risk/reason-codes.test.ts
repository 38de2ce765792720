import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { REASON_CODES } from '../../src/risk/reason-codes.js';
import { loadRuleSet } from '../../src/risk/rules.js';

const DOCS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/risk.md');

describe('reason-code catalog', function () {
  it('includes no_risk_detected', function () {
    expect(REASON_CODES).to.have.property('no_risk_detected');
  });

  it('docs/risk.md documents every reason code and every shipped rule', async function () {
    // A table's first cell, however Prettier pads the column.
    const cells = new Set([...readFileSync(DOCS, 'utf8').matchAll(/^\| `([^`]+)` +\|/gm)].map((m) => m[1]));
    for (const code of Object.keys(REASON_CODES)) expect(cells.has(code), code).to.equal(true);
    const set = await loadRuleSet([], []);
    for (const rule of set.rules) expect(cells.has(rule.id), rule.id).to.equal(true);
  });

  it('every shipped rule answers with a catalogued reason code', async function () {
    const set = await loadRuleSet([], []);
    for (const rule of set.rules) expect(Object.keys(REASON_CODES), rule.id).to.include(rule.reasonCode);
  });
});
