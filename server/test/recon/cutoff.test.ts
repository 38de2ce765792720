import { expect } from 'chai';
import { cutoff } from '../../src/recon/cutoff.js';

describe('recon/cutoff', () => {
  const bounds = { min: 3, max: 6, minGap: 0.25 };
  it('cuts at the largest relative gap inside the bounds', () => {
    expect(cutoff([1, 0.95, 0.9, 0.88, 0.3, 0.29, 0.28, 0.27], bounds)).to.deep.include({ keep: 4, reason: 'elbow' });
  });
  it('ignores a gap above the minimum', () => {
    expect(cutoff([1, 0.2, 0.19, 0.18, 0.17, 0.16, 0.15, 0.14], bounds).keep).to.be.at.least(3);
  });
  it('keeps up to max when scores are flat', () => {
    expect(cutoff([1, 0.99, 0.98, 0.97, 0.96, 0.95, 0.94, 0.93], bounds)).to.deep.include({
      keep: 6,
      reason: 'max_results',
    });
  });
  it('keeps a small pool whole', () => {
    expect(cutoff([1, 0.5], bounds)).to.deep.include({ keep: 2, reason: 'pool_exhausted' });
    expect(cutoff([1, 0.99, 0.98, 0.97], bounds)).to.deep.include({ keep: 4, reason: 'pool_exhausted' });
  });
});
