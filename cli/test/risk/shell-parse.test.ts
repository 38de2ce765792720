import { expect } from 'chai';
import { parseShell } from '../../src/risk/shell-parse.js';

const words = (text: string): string[][] => parseShell(text).commands.map((c) => c.words);

describe('shell-parse: tree-sitter-bash into simple commands', function () {
  it('splits lists, pipelines, subshells and groups', function () {
    expect(words('a 1 && b 2 || c; (d) | { e; }')).to.deep.equal([['a', '1'], ['b', '2'], ['c'], ['d'], ['e']]);
  });

  it('removes quotes and applies escapes, keeping expansions as written', function () {
    expect(words(`echo "a $HOME b" 'c d' e\\ f a"b"'c' $'x\\ty'`)).to.deep.equal([['echo', 'a $HOME b', 'c d', 'e f', 'abc', 'x\ty']]);
  });

  it('finds commands inside command, process and arithmetic substitutions', function () {
    expect(words('echo $(a) `b` <(c) >(d) $(( $(e) + 1 ))').map((w) => w[0])).to.have.members(['echo', 'a', 'b', 'c', 'd', 'e']);
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
});
