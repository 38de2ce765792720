import { FIND_MATCH } from '../../src/risk/paths.js';
import { expect } from 'chai';
import { normalizeShell, RUNTIME_VALUE } from '../../src/risk/normalize.js';
import { ReadBudget } from '../../src/risk/budget.js';

const run = (text: string, cwd: string | null = '/p') => normalizeShell(text, { cwd, home: '/h' });
const argvs = (text: string, cwd: string | null = '/p') => run(text, cwd).commands.map((c) => c.argv);

describe('normalize: what actually runs', function () {
  it('peels wrappers with their options', function () {
    const out = run('sudo -u root -- nice -n 5 timeout -s KILL 10 env -i A=1 stdbuf -o0 rm -rf x');
    const rm = out.commands.find((c) => c.argv[0] === 'rm');
    expect(rm?.argv).to.deep.equal(['rm', '-rf', 'x']);
    expect(rm?.via).to.deep.equal(['sudo', 'nice', 'timeout', 'env', 'stdbuf']);
    expect(rm?.env).to.include({ A: '1' });
  });

  it('lower-cases the program name and drops its path', function () {
    expect(argvs('/usr/bin/GIT STATUS')).to.deep.equal([['git', 'STATUS']]);
  });

  it('re-parses bash -c, su -c, eval and ssh strings', function () {
    for (const text of ["bash -c 'rm x'", "zsh -lc 'rm x'", "su -c 'rm x'", "eval 'rm x'", "ssh host 'rm x'"]) {
      expect(argvs(text), text).to.deep.include(['rm', 'x']);
    }
  });

  it('applies git -C and removes git global options', function () {
    const [git] = run('git -C ../o -c a=b --no-pager reset --hard').commands;
    expect(git).to.include({ cwd: '/o' });
    expect(git?.argv).to.deep.equal(['git', 'reset', '--hard']);
  });

  it('follows cd for later commands and loses the directory on a dynamic cd', function () {
    const out = run('cd sub && a; cd $X; b');
    expect(out.commands.find((c) => c.argv[0] === 'a')?.cwd).to.equal('/p/sub');
    expect(out.commands.find((c) => c.argv[0] === 'b')?.cwd).to.equal(null);
  });

  it('turns xargs, parallel and find -exec templates into commands', function () {
    expect(argvs('ls | xargs -I{} rm -rf {}')).to.deep.include(['rm', '-rf', RUNTIME_VALUE]);
    expect(argvs('parallel rm -rf {} ::: a b')).to.deep.include.members([
      ['rm', '-rf', 'a'],
      ['rm', '-rf', 'b'],
    ]);
    expect(argvs("parallel ::: 'rm x'")).to.deep.include(['rm', 'x']);
    expect(argvs('find /srv -name x -exec rm -f {} \\;')).to.deep.include.members([
      ['rm', '-f', `/srv/${FIND_MATCH}`],
      ['find', '/srv', '-name', 'x', '-delete', '-exec'],
    ]);
  });

  it('collects interpreter code and the shell inside spawn calls', function () {
    const out = run(`python3 -c "import os; os.system('rm -rf x')"`);
    expect(out.code[0]).to.include({ language: 'python' });
    expect(out.commands.map((c) => c.argv)).to.deep.include(['rm', '-rf', 'x']);
    expect(out.commands.find((c) => c.argv[0] === 'rm')?.via).to.deep.equal(['python3 -c']);
  });

  it('parses a heredoc fed to a shell', function () {
    expect(argvs('bash <<EOF\nrm x\nEOF')).to.deep.include(['rm', 'x']);
  });

  it('stops unwrapping past the depth limit and says so', function () {
    let text = 'rm x';
    for (let i = 0; i < 10; i += 1) text = `bash -c ${JSON.stringify(text)}`;
    const budget = new ReadBudget();
    normalizeShell(text, { cwd: '/p', home: '/h', budget });
    expect(budget.exhausted).to.equal(true);
    expect(budget.incomplete.join(' ')).to.match(/nesting deeper than/);
  });
});
