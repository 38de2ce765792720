import { expect } from 'chai';
import { parseShell, parseWithTreeSitter, plainWords } from '../../src/risk/shell-parse.js';
import { BENCH_COMMANDS } from './bench-commands.js';

const words = (text: string): string[][] => parseShell(text).commands.map((c) => c.words);

describe('shell-parse: tree-sitter-bash into simple commands', function () {
  it('splits lists, pipelines, subshells and groups', function () {
    expect(words('a 1 && b 2 || c; (d) | { e; }')).to.deep.equal([['a', '1'], ['b', '2'], ['c'], ['d'], ['e']]);
  });

  it('removes quotes and applies escapes, keeping expansions as written', function () {
    expect(words(`echo "a $HOME b" 'c d' e\\ f a"b"'c' $'x\\ty'`)).to.deep.equal([
      ['echo', 'a $HOME b', 'c d', 'e f', 'abc', 'x\ty'],
    ]);
  });

  it('finds commands inside command, process and arithmetic substitutions', function () {
    expect(words('echo $(a) `b` <(c) >(d) $(( $(e) + 1 ))').map((w) => w[0])).to.have.members([
      'echo',
      'a',
      'b',
      'c',
      'd',
      'e',
    ]);
  });

  it('keeps VAR=x prefixes and bare assignments', function () {
    const parsed = parseShell('A=1 B="x y" cmd; C=2');
    expect(parsed.commands[0]?.words).to.deep.equal(['cmd']);
    expect(parsed.commands[0]?.assignments).to.deep.equal({ A: '1', B: 'x y' });
    expect(parsed.assignments).to.deep.equal({ C: '2' });
  });

  it('records redirections, including words the grammar files under them', function () {
    const [cmd] = parseShell('rm -rf 2>/dev/null / >> out.log').commands;
    expect(cmd?.words).to.deep.equal(['rm', '-rf', '/']);
    expect(cmd?.redirects).to.deep.equal([
      { op: '>', target: '/dev/null' },
      { op: '>>', target: 'out.log' },
    ]);
  });

  it('feeds heredoc and herestring text to the command as stdin', function () {
    expect(parseShell('bash <<EOF\nrm -rf /\nEOF').commands[0]?.stdinText).to.equal('rm -rf /\n');
    expect(parseShell('sh <<< "git push -f"').commands[0]?.stdinText).to.equal('git push -f');
  });

  it('records what flows into a command: earlier pipeline stages and substitutions', function () {
    const parsed = parseShell('curl x | tee a | sh; bash <(wget y)');
    expect(parsed.commands.find((c) => c.words[0] === 'sh')?.inputFrom).to.deep.equal(['curl', 'tee']);
    expect(parsed.commands.find((c) => c.words[0] === 'bash')?.inputFrom).to.deep.equal(['wget']);
  });

  it('closes an unterminated quote and says so', function () {
    const parsed = parseShell("git push -f 'oops");
    expect(parsed.repairedWith).to.equal("'");
    expect(parsed.hasError).to.equal(true);
    expect(parsed.commands[0]?.words.slice(0, 3)).to.deep.equal(['git', 'push', '-f']);
  });

  it('records function definitions', function () {
    expect(parseShell(':(){ :|:& };:').functions).to.deep.equal([':']);
  });

  describe('plain words answered without the parser', function () {
    it('equals the tree-sitter parse for every risk bench command it applies to', function () {
      const applies = BENCH_COMMANDS.filter((command) => plainWords(command) !== null);
      expect(applies.length).to.be.greaterThan(200);
      for (const command of applies) expect(plainWords(command), command).to.deep.equal(parseWithTreeSitter(command));
    });

    // Letters and digits stand for their classes; the rest is every other character the fast path accepts.
    const ALPHABET = 'aZ09_./,:@%+-=~';
    const shortWords = (length: number): string[] =>
      length === 0 ? [''] : shortWords(length - 1).flatMap((w) => [...ALPHABET].map((c) => w + c));
    /** The bench commands' words that the fast path's alphabet allows. */
    const benchWords = [...new Set(BENCH_COMMANDS.flatMap((c) => c.split(' ')))].filter((w) =>
      /^([A-Za-z0-9_./,:@%+=-]+|~(\/[A-Za-z0-9_./,:@%+=-]*)?)$/.test(w),
    );

    it('equals the tree-sitter parse for every word of up to 3 characters, as the first word and as a later one', async function () {
      const words = [1, 2, 3].flatMap(shortWords);
      let applied = 0;
      for (const [i, word] of words.entries()) {
        for (const text of [word, `${word} x`, `x ${word}`, `x ${word} y`]) {
          const plain = plainWords(text);
          if (plain === null) continue;
          applied += 1;
          expect(plain, text).to.deep.equal(parseWithTreeSitter(text));
        }
        if (i % 200 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      expect(applied).to.be.greaterThan(4000);
    });

    it('equals the tree-sitter parse for generated word lists', async function () {
      // A fixed-seed generator: words over the alphabet, the bench's own words, and reserved words.
      let seed = 20261122;
      const random = (n: number): number => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed % n;
      };
      const special = [
        'if',
        'then',
        'fi',
        'for',
        'in',
        'do',
        'done',
        'case',
        'esac',
        'while',
        'until',
        'function',
        'select',
        'time',
        'declare',
        'export',
        'local',
        'unset',
        'readonly',
        'typeset',
        'g++',
        'c++',
        '-',
        '--',
        '%',
        '%1',
        '.',
        '..',
        ':',
        ',',
        '@',
        '+',
        '=',
        '==',
        '=~',
        '1',
        '2',
        'x=1',
        '-a=b',
        'a,b',
        'a:b',
        'a@b',
        '~',
        '~/',
        '~/.ssh',
        '~+',
        '~-',
        '~x',
        'a~',
      ];
      // `~` is accepted only as a word's start: within random words it would mostly send them to the parser.
      const WORD_ALPHABET = ALPHABET.replace('~', '');
      const word = (): string => {
        const kind = random(3);
        if (kind === 0) return benchWords[random(benchWords.length)] as string;
        if (kind === 1) return special[random(special.length)] as string;
        return Array.from({ length: 1 + random(6) }, () => WORD_ALPHABET[random(WORD_ALPHABET.length)]).join('');
      };
      let applied = 0;
      for (let i = 0; i < 4000; i += 1) {
        const text = Array.from({ length: 1 + random(6) }, word).join(' ');
        const plain = plainWords(text);
        if (i % 200 === 0) await new Promise((resolve) => setImmediate(resolve));
        if (plain === null) continue;
        applied += 1;
        expect(plain, text).to.deep.equal(parseWithTreeSitter(text));
      }
      expect(applied).to.be.greaterThan(1000);
    });

    it('equals the tree-sitter parse for generated pipelines and lists', async function () {
      // Plain word lists joined by the accepted joiners, and by near misses the fast path must leave alone.
      let seed = 20261123;
      const random = (n: number): number => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        // The high bits: an LCG's low bits repeat with short periods.
        return Math.floor((seed / 2 ** 31) * n);
      };
      const special = [
        'if',
        'then',
        'fi',
        'do',
        'done',
        'time',
        'export',
        '!',
        '-',
        '--',
        '=',
        'x=1',
        'a@b',
        '%1',
        '{',
        '}',
        '(',
        ')',
      ];
      const joiners = [' | ', ' && ', ' || ', '; '];
      const nearMisses = ['|', ' |', '| ', ';', ' ; ', ' & ', ' |& ', '  |  ', ' &&', '&& ', ' ;; ', '\n'];
      const programs = [...new Set(BENCH_COMMANDS.map((c) => c.split(' ')[0] as string))].filter((w) =>
        /^[A-Za-z0-9_./][A-Za-z0-9_./,+-]*$/.test(w),
      );
      const word = (): string => {
        const kind = random(12);
        if (kind === 0) return special[random(special.length)] as string;
        if (kind === 1) return Array.from({ length: 1 + random(4) }, () => ALPHABET[random(ALPHABET.length)]).join('');
        return benchWords[random(benchWords.length)] as string;
      };
      // A command: mostly a bench program name first, then up to three words.
      const words = (): string =>
        [
          random(6) === 0 ? word() : (programs[random(programs.length)] as string),
          ...Array.from({ length: random(4) }, word),
        ].join(' ');
      let applied = 0;
      let pipelines = 0;
      for (let i = 0; i < 4000; i += 1) {
        let text = words();
        for (let stages = 1 + random(3); stages > 0; stages -= 1)
          text += (random(8) === 0 ? nearMisses[random(nearMisses.length)] : joiners[random(joiners.length)]) + words();
        if (random(10) === 0) text += random(2) ? ';' : ' |';
        if (i % 200 === 0) await new Promise((resolve) => setImmediate(resolve));
        const plain = plainWords(text);
        if (plain === null) continue;
        applied += 1;
        if (plain.commands.some((cmd) => cmd.inputFrom.length > 0)) pipelines += 1;
        expect(plain, text).to.deep.equal(parseWithTreeSitter(text));
      }
      expect(applied).to.be.greaterThan(600);
      expect(pipelines).to.be.greaterThan(200);
    });

    it('leaves anything quoted, expanded, redirected, reserved, backgrounded or oddly spaced to tree-sitter', function () {
      for (const text of [
        'git status',
        'rm -rf / --no-preserve-root',
        'rm -rf ~',
        'ls ~/.ssh ~',
        'npm test -- --grep=x',
        'g++ -O2 a.c',
        'date +%Y',
        'a | b',
        'a; b',
        'make && make install || echo failed',
      ]) {
        expect(plainWords(text), text).to.not.equal(null);
      }
      for (const text of [
        'A=1 cmd',
        'echo "x"',
        "echo 'x'",
        'echo $HOME',
        'a > b',
        'a |b',
        'a;b',
        'a &',
        'a & b',
        'a |& b',
        'a | if x',
        'a;',
        'a | ',
        'a  b',
        ' a',
        'a ',
        'a\tb',
        'if x',
        'export A=1',
        'ls *.ts',
        'echo ~+',
        'echo ~root',
        'echo a~',
        'x =~ y',
        '~ x',
        '# c',
        'a\\ b',
        '',
        'user@host x',
        'a%b',
        'a+:b',
        'x == y',
        '- -a=b',
        '-x y',
      ]) {
        expect(plainWords(text), text).to.equal(null);
      }
    });
  });
});
