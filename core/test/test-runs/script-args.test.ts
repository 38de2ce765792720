import { expect } from 'chai';
import { argsOfScript, scriptCommands, splitInlineValue } from '../../src/index.js';

describe('script-args: a package.json script read as a shell reads it', function () {
  it('splits commands on every operator and keeps quoted words whole', function () {
    expect(
      scriptCommands(`tsc -b && mocha --grep "a && b" 'test/x y.js' || echo failed; c8 report | tee log &`),
    ).to.deep.equal([
      ['tsc', '-b'],
      ['mocha', '--grep', 'a && b', 'test/x y.js'],
      ['echo', 'failed'],
      ['c8', 'report'],
      ['tee', 'log'],
    ]);
  });

  it('expands nothing: variables stay as written, globs stay patterns; a comment ends the script', function () {
    expect(scriptCommands('NODE_ENV=test mocha $SPEC "test/**/*.js" test/*.mjs # --bail')).to.deep.equal([
      ['NODE_ENV=test', 'mocha', '$SPEC', 'test/**/*.js', 'test/*.mjs'],
    ]);
  });

  it('finds the first command the predicate names, and what follows the program', function () {
    const isNodeTest = (word: string, rest: string[]) => /(^|\/)node$/.test(word) && rest.includes('--test');
    expect(argsOfScript('node build.js && node --import tsx --test "src/**/*.test.ts"', isNodeTest)).to.deep.equal([
      '--import',
      'tsx',
      '--test',
      'src/**/*.test.ts',
    ]);
    expect(argsOfScript('node build.js', isNodeTest)).to.equal(undefined);
    expect(argsOfScript('', isNodeTest)).to.equal(undefined);
  });

  it('reads malformed scripts without throwing: an unclosed quote runs to the end', function () {
    expect(() => scriptCommands(`mocha "test/unclosed`)).not.to.throw();
    expect(scriptCommands(`mocha "test/unclosed`)[0]?.[0]).to.equal('mocha');
    expect(scriptCommands('&& ;; |')).to.deep.equal([]);
  });

  it('splits --name=value, and nothing else', function () {
    expect(splitInlineValue('--require=ts-node/register')).to.deep.equal(['--require', 'ts-node/register']);
    expect(splitInlineValue('--grep=a=b')).to.deep.equal(['--grep', 'a=b']);
    expect(splitInlineValue('-r=x')).to.deep.equal(['-r=x', undefined]);
    expect(splitInlineValue('--=x')).to.deep.equal(['--=x', undefined]);
    expect(splitInlineValue('test/a=b.js')).to.deep.equal(['test/a=b.js', undefined]);
  });
});
