import { expect } from 'chai';
import { parseOptions } from '../../src/risk/match.js';

const opts = (args: string[], value: Record<string, string[] | null> = {}, style: 'gnu' | 'single-dash' = 'gnu') => {
  const parsed = parseOptions(args, new Map(Object.entries(value)), style);
  return { flags: [...parsed.flags], positionals: parsed.positionals, doubleDash: parsed.doubleDash };
};

describe('match: reading options with a rule spec', function () {
  it('splits GNU clusters and stops at --', function () {
    expect(opts(['-rf', '--force=x', '--', '-q'])).to.deep.equal({
      flags: ['-r', '-f', '--force'],
      positionals: ['-q'],
      doubleDash: true,
    });
  });

  it('does not read a value option’s value as flags', function () {
    expect(opts(['-bfeature'], { '-b': null }).flags).to.deep.equal(['-b']);
    expect(opts(['-qb', 'f', 'main'], { '-b': null })).to.deep.include({ flags: ['-q', '-b'], positionals: ['main'] });
  });

  it('takes an enumerated value only when it is one of the values', function () {
    expect(opts(['--track', 'direct', 'main'], { '--track': ['direct', 'inherit'] }).positionals).to.deep.equal([
      'main',
    ]);
    expect(opts(['--track', 'main', 'f'], { '--track': ['direct', 'inherit'] }).positionals).to.deep.equal([
      'main',
      'f',
    ]);
  });

  it('keeps single-dash words whole', function () {
    expect(opts(['.', '-name', '-delete', '-delete'], { '-name': null }, 'single-dash')).to.deep.include({
      flags: ['-name', '-delete'],
      positionals: ['.'],
    });
  });
});
