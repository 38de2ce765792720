import { expect } from 'chai';
import { actionForScore, levelForScore } from '../../src/risk/scoring.js';

describe('scoring: bands and default actions', function () {
  const table: Array<[number, string, string]> = [
    [0, 'low', 'allow'],
    [24, 'low', 'allow'],
    [25, 'medium', 'warn'],
    [49, 'medium', 'warn'],
    [50, 'high', 'ask'],
    [74, 'high', 'ask'],
    [75, 'critical', 'deny'],
    [100, 'critical', 'deny'],
  ];
  for (const [score, level, action] of table) {
    it(`${score} → ${level} / ${action}`, function () {
      expect([levelForScore(score), actionForScore(score)]).to.deep.equal([level, action]);
    });
  }
});
