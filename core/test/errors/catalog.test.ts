import { expect } from 'chai';
import { AgentgovError, ERROR_CATALOG, errorCodes, isErrorCode } from '../../src/index.js';

describe('error catalog', () => {
  const required = [
    'E_INDEX_NOT_READY',
    'E_READ_ONLY_SESSION',
    'E_RECON_REQUIRED',
    'E_INVALID_ARGUMENT',
    'E_PATH_OUTSIDE_REPO',
    'E_NOT_FOUND',
    'E_PREVIEW_STALE',
    'E_PREVIEW_NOT_FOUND',
    'E_INTERNAL',
  ];

  it('has every code the tools rely on', () => {
    for (const code of required) expect(isErrorCode(code), code).to.equal(true);
    expect(isErrorCode('E_NOPE')).to.equal(false);
  });

  it('gives every code a meaning, causes and remediation', () => {
    for (const code of errorCodes()) {
      const entry = ERROR_CATALOG[code];
      expect(code).to.match(/^E_[A-Z_]+$/);
      expect(entry.meaning, code).to.match(/\.$/);
      expect(entry.causes.length, code).to.be.greaterThan(0);
      expect(entry.remediation.length, code).to.be.greaterThan(10);
    }
  });

  it('serialises an error as the structured tool error shape', () => {
    const error = new AgentgovError('E_PATH_OUTSIDE_REPO', 'path ../etc/passwd is outside the repository', {
      path: '../etc/passwd',
    });
    expect(error.toJSON()).to.deep.equal({
      error: {
        code: 'E_PATH_OUTSIDE_REPO',
        message: 'path ../etc/passwd is outside the repository',
        remediation: ERROR_CATALOG.E_PATH_OUTSIDE_REPO.remediation,
        details: { path: '../etc/passwd' },
      },
    });
  });
});
