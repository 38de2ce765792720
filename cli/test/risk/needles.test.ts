import { globsRegExp } from '@agentgov/core/glob';
import { expect } from 'chai';
import { regexNeedles, ruleRegexNeedles } from '../../src/risk/needles.js';
import {
  compileRule,
  matchesProgram,
  needlesFromList,
  ruleRegexSources,
  type RuleSourceSpec,
} from '../../src/risk/rule-compile.js';
import { readRuleSources } from '../../src/risk/rules.js';
import { BENCH_COMMANDS } from './bench-commands.js';

describe('needles: strings every match of a rule expression holds', function () {
  it('takes the most selective literal part of each alternative', function () {
    expect(ruleRegexNeedles('^(pip|uv) install')).to.deep.equal([' install']);
    expect(ruleRegexNeedles('^(pipx|uv3)x?-')).to.deep.equal(['pipx', 'uv3']);
    expect(ruleRegexNeedles('(a)b?\\1')).to.deep.equal(['a']);
    expect(ruleRegexNeedles('\\bcurl\\b.*\\|\\s*(ba|z)?sh\\b')).to.deep.equal(['curl']);
    expect(ruleRegexNeedles('(?:^|/)\\.env$|\\.pem$')).to.deep.equal(['.env', '.pem']);
    expect(ruleRegexNeedles('a+b')).to.deep.equal(['a']);
    expect(ruleRegexNeedles('[.]ssh/')).to.deep.equal(['.ssh/']);
    expect(ruleRegexNeedles('x(?=yz)y')).to.deep.equal(['xy']);
  });

  it('lower-cases them for a case-insensitive expression and stops at a character outside ASCII', function () {
    expect(ruleRegexNeedles('(?i)Remove-Item')).to.deep.equal(['remove-item']);
    expect(ruleRegexNeedles('(?i)ab\u00e9cd')).to.deep.equal(['ab']);
    expect(regexNeedles('Curl', 'iu')).to.equal(undefined);
    expect(regexNeedles('Curl', 'u')).to.deep.equal(['Curl']);
  });

  it('has none when a match needs no literal, an alternative is empty or the expression does not parse', function () {
    for (const source of ['^\\S+$', '\\w+\\.?', 'a|', '(a|b?)c?', 'a{0,3}', '(a?)\\1', '[ab]', '(']) {
      expect(ruleRegexNeedles(source), source).to.equal(undefined);
    }
  });

  it('never turns away a text an expression of the shipped rules matches (every bench command, whole and by word)', async function () {
    const specs = (await readRuleSources([], [])).map((source) => source.spec);
    const sources = ruleRegexSources(specs);
    expect(sources.length).to.be.greaterThan(300);
    const texts = BENCH_COMMANDS.flatMap((command) => [command, ...command.split(/\s+/)]);
    let withNeedles = 0;
    let matched = 0;
    for (const source of sources) {
      const needles = ruleRegexNeedles(source);
      if (!needles) continue;
      withNeedles++;
      const insensitive = source.startsWith('(?i)');
      const re = insensitive ? new RegExp(source.slice(4), 'i') : new RegExp(source);
      for (const text of texts) {
        if (!re.test(text)) continue;
        matched++;
        const haystack = insensitive ? text.toLowerCase() : text;
        expect(
          needles.some((needle) => haystack.includes(needle)),
          `${source} matches ${text} holding none of ${needles}`,
        ).to.equal(true);
      }
    }
    expect(withNeedles).to.be.greaterThan(0.9 * sources.length);
    expect(matched).to.be.greaterThan(400);
  });

  it('are read back from the cache’s list only when it is as long as the specs’ expressions', function () {
    const specs: RuleSourceSpec[] = [
      { origin: 'test', spec: { path_classes: { keys: ['\\.pem$', '^\\S+$'] }, rules: [] } as never },
    ];
    expect([...needlesFromList(specs, [['.pem'], null])]).to.deep.equal([['\\.pem$', ['.pem']]]);
    expect(needlesFromList(specs, [['.pem']]).size).to.equal(0);
  });
});

describe('program globs: run only on names holding their longest literal part', function () {
  it('matches as the glob does', function () {
    const rule = compileRule(
      { id: 't', reason_code: 'x', score: 1, match: { command: ['py*n3', 'mk?s.*', 'x?[ab]'] } } as never,
      'test',
    );
    const matcher = rule.match.commandMatcher;
    expect(matcher).to.not.equal(undefined);
    for (const [program, expected] of [
      ['python3', true],
      ['pyn3', true],
      ['mkfs.ext4', true],
      ['mkfs', false],
      ['xya', true],
      ['xyc', false],
      ['pyt', false],
    ] as const)
      expect(matchesProgram(matcher!, program), program).to.equal(expected);
    const names = compileRule(
      { id: 'n', reason_code: 'x', score: 1, match: { command: ['py*n3', 'mk?s.*'] } } as never,
      't',
    );
    for (const [program, expected] of [
      ['python3', true],
      ['mkfs.ext4', true],
      ['pytho', false],
      ['mkfs', false],
    ] as const)
      expect(matchesProgram(names.match.commandMatcher!, program), program).to.equal(expected);
  });

  it('every shipped rule with program globs answers as its glob does, on every word of the risk bench', async function () {
    const specs = (await readRuleSources([], [])).map((source) => source.spec);
    const words = [...new Set(BENCH_COMMANDS.flatMap((command) => command.toLowerCase().split(/[\s;|&()]+/)))];
    let checked = 0;
    let matched = 0;
    for (const spec of specs)
      for (const rule of spec.rules ?? []) {
        const globs = [rule.match.command ?? []].flat().filter((glob) => /[*?]/.test(glob));
        if (globs.length === 0) continue;
        const plain = globsRegExp(
          globs.map((glob) => glob.toLowerCase()),
          { crossSlash: true },
        );
        const matcher = compileRule(rule, 'test').match.commandMatcher!;
        for (const word of words) {
          const expected = plain.test(word);
          matched += expected ? 1 : 0;
          checked++;
          expect(matchesProgram(matcher, word), `${rule.id}: ${word}`).to.equal(expected || matcher.names.has(word));
        }
      }
    expect(checked).to.be.greaterThan(5_000);
    expect(matched).to.be.greaterThan(20);
  });

  it('never turns away a text a generated expression matches (2,000 expressions × 300 texts)', function () {
    let seed = 29;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pick = <T>(items: readonly T[]): T => items[random(items.length)] as T;
    const atom = (depth: number): string =>
      depth > 2 || random(3) > 0
        ? pick(['a', 'b', 'c', 'A', 'B', '[ab]', '[a]', '.', '\\s', '\\x61', '\\b', '^', '$', '(?=a)', '(?!b)'])
        : `(${pick(['', '?:'])}${sequence(depth + 1)}|${sequence(depth + 1)})`;
    const sequence = (depth: number): string =>
      Array.from({ length: 1 + random(4) }, () => atom(depth) + pick(['', '', '', '?', '*', '+', '{1,2}', '{2}']))
        .join('')
        .replace(/(\\b|\^|\$|\(\?[=!]\w\))[?*+]|(\{[\d,]+\})[?*+]/g, '$1$2');
    let sources = 0;
    let matches = 0;
    for (let i = 0; i < 2000; i++) {
      const source = sequence(0);
      const flags = random(2) ? 'i' : '';
      let re: RegExp;
      try {
        re = new RegExp(source, flags);
      } catch {
        continue;
      }
      const needles = regexNeedles(source, flags);
      if (!needles) continue;
      sources++;
      for (let j = 0; j < 300; j++) {
        const text = Array.from({ length: random(9) }, () => pick(['a', 'b', 'c', 'A', 'B', ' '])).join('');
        if (!re.test(text)) continue;
        matches++;
        const haystack = flags ? text.toLowerCase() : text;
        expect(
          needles.some((needle) => haystack.includes(needle)),
          `/${source}/${flags} on "${text}": ${needles}`,
        ).to.equal(true);
      }
    }
    expect(sources).to.be.greaterThan(500);
    expect(matches).to.be.greaterThan(5000);
  });
});
