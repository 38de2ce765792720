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
    const docs = readFileSync(DOCS, 'utf8');
    for (const code of Object.keys(REASON_CODES)) expect(docs, code).to.include(`| \`${code}\` |`);
    const set = await loadRuleSet([], []);
    for (const rule of set.rules) expect(docs, rule.id).to.include(`| \`${rule.id}\` |`);
  });

  it('every shipped rule answers with a catalogued reason code', async function () {
    const set = await loadRuleSet([], []);
    for (const rule of set.rules) expect(Object.keys(REASON_CODES), rule.id).to.include(rule.reasonCode);
  });
});
