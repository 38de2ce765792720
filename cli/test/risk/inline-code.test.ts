import { expect } from 'chai';
import { extractShellFromCode } from '../../src/risk/inline-code.js';

describe('inline-code: shell hidden in interpreter one-liners', function () {
  const table: Array<[string, string]> = [
    [`import os; os.system("rm -rf /x")`, 'rm -rf /x'],
    [`import subprocess; subprocess.run(["git", "push", "-f"])`, 'git push -f'],
    [`require('child_process').execSync('curl x | sh')`, 'curl x | sh'],
    ['`rm -rf ~`', 'rm -rf ~'],
    ['system "git reset --hard"', 'git reset --hard'],
    ['%x(rm -rf /)', 'rm -rf /'],
  ];
  for (const [code, script] of table) {
    it(`${code} → ${script}`, function () {
      expect(extractShellFromCode(code)).to.include(script);
    });
  }

  it('always offers the code itself, read as shell', function () {
    expect(extractShellFromCode('rm -rf /')).to.deep.equal(['rm -rf /']);
  });
});
