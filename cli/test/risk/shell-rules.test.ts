import { expect } from 'chai';
import { normalizeShell } from '../../src/risk/normalize.js';
import { compileRule } from '../../src/risk/rules.js';
import type { RiskRuleSpec } from '../../src/risk/rule-schema.js';
import { ShellRuleIndex } from '../../src/risk/shell-rules.js';

const rule = (id: string, match: RiskRuleSpec['match']) =>
  compileRule({ id, reason_code: 'test', score: 50, match }, 'test');
const CONTEXT = { projectRoot: '/p', home: '/home/u', classPatterns: new Map([['secret', [/(^|\/)\.env$/]]]) };
const hitsOf = (index: ShellRuleIndex, text: string) =>
  index.hits(normalizeShell(text, { cwd: '/p', home: '/home/u' }), CONTEXT).map((h) => `${h.rule.id}: ${h.subject}`);

describe('shell-rules: which rules a command is tried against', function () {
  const index = new ShellRuleIndex([
    rule('named', { command: ['rm', 'unlink'], flags_any: ['-f'] }),
    rule('glob', { command: 'python*', args_regex: ['^-c$'] }),
    rule('any-program', { targets: ['secret'] }),
    rule('text-only', { text: ['fork'] }),
    rule('gated', { command: 'echo', text: ['danger'] }),
    rule('code-only', { code: ['rmtree'] }),
  ]);

  it('tries named, glob-named and unnamed rules on the commands they can match, in rule order', function () {
    expect(hitsOf(index, 'cat .env; python3 -c pass; rm -f x')).to.deep.equal([
      'named: rm -f x',
      'glob: python3 -c pass',
      'any-program: cat .env',
    ]);
  });

  it('reports a rule once, with the first command that matches it', function () {
    expect(hitsOf(index, 'rm -f a; unlink -f b')).to.deep.equal(['named: rm -f a']);
  });

  it('needs a per-command rule’s text condition met before trying its commands', function () {
    expect(hitsOf(index, 'echo hi')).to.deep.equal([]);
    expect(hitsOf(index, 'echo danger')).to.deep.equal(['gated: echo danger']);
  });

  it('hits text-only and code-only rules on the text and the inline code', function () {
    expect(hitsOf(index, 'echo fork')).to.deep.equal(['text-only: echo fork']);
    expect(hitsOf(index, "python -c 'import shutil; shutil.rmtree(p)'")).to.deep.equal([
      'glob: python -c import shutil; shutil.rmtree(p)',
      'code-only: import shutil; shutil.rmtree(p)',
    ]);
  });

  it('tries subcommand rules by their first word among the arguments, and written-file rules on redirections', function () {
    const byWord = new ShellRuleIndex([
      rule('push-force', { command: 'git', subcommand: 'push', flags_any: ['-f'] }),
      rule('stash-drop', { command: 'git', subcommand: ['stash drop', 'stash clear'] }),
      rule('writes-secret', { redirect_targets: ['secret'] }),
    ]);
    expect(hitsOf(byWord, 'git -C /p PUSH -f origin')).to.deep.equal(['push-force: git PUSH -f origin']);
    expect(hitsOf(byWord, 'git stash list; git stash clear')).to.deep.equal(['stash-drop: git stash clear']);
    expect(hitsOf(byWord, 'git status')).to.deep.equal([]);
    expect(hitsOf(byWord, 'echo x > .env')).to.deep.equal(['writes-secret: echo x']);
    expect(hitsOf(byWord, 'echo x .env')).to.deep.equal([]);
  });
});
