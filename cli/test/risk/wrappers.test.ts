import { expect } from 'chai';
import { inlineCodeOf, interpreterFamily, skipOptions } from '../../src/risk/wrappers.js';

describe('wrappers: options of commands that run commands', function () {
  it('skips a wrapper’s options, values included, and stops at --', function () {
    expect(skipOptions(['-u', 'root', '-E', 'rm', '-rf'], ['-u']).index).to.equal(3);
    expect(skipOptions(['-uroot', '--', '-x'], ['-u'])).to.deep.equal({ index: 2, values: [['-u', 'root']] });
    expect(skipOptions(['--user=root', 'cmd'], []).values).to.deep.equal([['--user', 'root']]);
  });

  it('knows interpreter families by versioned names', function () {
    expect(
      ['python3.12', 'pypy3', 'nodejs', 'perl5.36', 'ruby3.2', 'php8', 'awk'].map(interpreterFamily),
    ).to.deep.equal(['python', 'python', 'node', 'perl', 'ruby', 'php', undefined]);
  });

  const table: Array<[string, string[], { option: string; code: string } | undefined]> = [
    ['python', ['-c', 'print(1)'], { option: '-c', code: 'print(1)' }],
    ['python', ['-Bc', 'x'], { option: '-Bc', code: 'x' }],
    ['python', ['-m', 'pytest', '-c', 'x'], undefined],
    ['python', ['script.py', '-c', 'x'], undefined],
    ['python', ['--', '-c', 'x'], undefined],
    ['node', ['-pe', '1+1'], { option: '-pe', code: '1+1' }],
    ['node', ['--eval', 'x()'], { option: '--eval', code: 'x()' }],
    ['perl', ['-e', 'fork while fork'], { option: '-e', code: 'fork while fork' }],
    ['ruby', ['-e'], undefined],
    ['deno', ['eval', 'Deno.exit()'], { option: 'eval', code: 'Deno.exit()' }],
  ];
  for (const [family, args, expected] of table) {
    it(`${family} ${args.join(' ')} → ${expected ? expected.code : 'no inline code'}`, function () {
      expect(inlineCodeOf(family, args)).to.deep.equal(expected);
    });
  }
});
