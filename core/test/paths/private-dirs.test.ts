import { expect } from 'chai';
import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateHome, makeDirectories, untrustedReason } from '../../src/paths/home.js';
import { makeTempDir } from '../../src/testing/index.js';

describe('per-user directories', () => {
  it('makeDirectories makes each missing directory, 0700, and says which', () => {
    const root = makeTempDir('dirs-');
    const made = makeDirectories(join(root, 'a', 'b', 'c'));
    expect(made).to.deep.equal([join(root, 'a'), join(root, 'a', 'b'), join(root, 'a', 'b', 'c')]);
    expect(statSync(join(root, 'a', 'b', 'c')).mode & 0o777).to.equal(0o700);
    expect(makeDirectories(join(root, 'a', 'b'))).to.deep.equal([]);
  });

  it("makeDirectories fails at once, naming the directory, where directories cannot be made (Node's recursive mkdir spins there)", () => {
    expect(() => makeDirectories('/proc/self/agentgov-x/y')).to.throw(
      /cannot create the directory \/proc\/self\/agentgov-x/,
    );
    const root = makeTempDir('dirs-');
    writeFileSync(join(root, 'file'), '');
    expect(() => makeDirectories(join(root, 'file', 'x'))).to.throw(/not a directory/);
  });

  it('untrustedReason refuses what the group or others can write; a missing path is fine', () => {
    const root = makeTempDir('dirs-');
    const dir = join(root, 'home');
    expect(untrustedReason(dir, 'AGENTGOV_HOME')).to.equal(undefined);
    mkdirSync(dir, { mode: 0o700 });
    expect(untrustedReason(dir, 'AGENTGOV_HOME')).to.equal(undefined);
    chmodSync(dir, 0o770);
    expect(untrustedReason(dir, 'AGENTGOV_HOME')).to.equal(
      `AGENTGOV_HOME ${dir} is writable by its group (mode 0770); make it private: chmod 700 ${dir}`,
    );
    chmodSync(dir, 0o777);
    expect(untrustedReason(dir, 'AGENTGOV_HOME')).to.contain('is writable by anyone (mode 0777)');
    expect(() => ensurePrivateHome({ AGENTGOV_HOME: dir }))
      .to.throw(/refusing to use AGENTGOV_HOME/)
      .with.property('code', 'E_CONFIG_INVALID');
    expect(statSync(dir).mode & 0o777, 'never silently chmod-ed').to.equal(0o777);
  });

  it('ensurePrivateHome creates a missing home 0700 and leaves an existing private one as it is', () => {
    const root = makeTempDir('dirs-');
    const home = join(root, 'x', '.agentgov');
    expect(ensurePrivateHome({ AGENTGOV_HOME: home })).to.equal(home);
    expect(statSync(home).mode & 0o777).to.equal(0o700);
    chmodSync(home, 0o755);
    ensurePrivateHome({ AGENTGOV_HOME: home });
    expect(statSync(home).mode & 0o777).to.equal(0o755);
  });
});
