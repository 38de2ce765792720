import { expect } from 'chai';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentgovError, defaultConfig, loadConfig, resolveConfigFile } from '../../src/index.js';
import { makeTempDir } from '../../src/testing/index.js';

/** A world with a home, a cwd and four candidate config files, each naming where it came from. */
function world() {
  const root = makeTempDir('agentgov-config-');
  const home = join(root, 'home');
  const agentgovHome = join(home, '.agentgov');
  const cwd = join(root, 'project');
  mkdirSync(agentgovHome, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  const write = (file: string, level: string) => (writeFileSync(file, `log_level: ${level}\n`), file);
  return {
    cwd,
    env: { HOME: home, AGENTGOV_HOME: agentgovHome } as NodeJS.ProcessEnv,
    flagFile: () => write(join(root, 'flag.yaml'), 'DEBUG'),
    envFile: () => write(join(root, 'env.yaml'), 'WARNING'),
    cwdFile: () => write(join(cwd, 'agentgov.yaml'), 'ERROR'),
    homeFile: () => write(join(agentgovHome, 'config.yaml'), 'INFO'),
  };
}

describe('config resolution', () => {
  it('uses built-in defaults when no file exists', () => {
    const w = world();
    const loaded = loadConfig({ cwd: w.cwd, env: w.env });
    expect(loaded.source).to.equal('defaults');
    expect(loaded.file).to.equal(null);
    expect(loaded.config).to.deep.equal(defaultConfig());
  });

  it('falls back to $AGENTGOV_HOME/config.yaml', () => {
    const w = world();
    const file = w.homeFile();
    expect(resolveConfigFile({ cwd: w.cwd, env: w.env })).to.deep.equal({ file, source: 'home' });
  });

  it('prefers ./agentgov.yaml over the home config', () => {
    const w = world();
    w.homeFile();
    const file = w.cwdFile();
    const loaded = loadConfig({ cwd: w.cwd, env: w.env });
    expect(loaded).to.include({ file, source: 'cwd' });
    expect(loaded.config.log_level).to.equal('ERROR');
  });

  it('does not look for agentgov.yaml in parent directories', () => {
    const w = world();
    w.cwdFile();
    const nested = join(w.cwd, 'sub');
    mkdirSync(nested);
    expect(resolveConfigFile({ cwd: nested, env: w.env }).source).to.equal('defaults');
  });

  it("uses $AGENTGOV_CONFIG as the user's file instead of the home one, with ./agentgov.yaml merged over it", () => {
    const w = world();
    w.homeFile();
    writeFileSync(join(w.cwd, 'agentgov.yaml'), 'score:\n  enabled: false\n');
    const file = w.envFile();
    const loaded = loadConfig({ cwd: w.cwd, env: { ...w.env, AGENTGOV_CONFIG: file } });
    expect(loaded.layers).to.deep.equal([
      { role: 'user', file, source: 'env' },
      { role: 'project', file: join(w.cwd, 'agentgov.yaml'), source: 'cwd' },
    ]);
    expect(loaded.config.log_level).to.equal('WARNING');
    expect(loaded.config.score.enabled).to.equal(false);
  });

  it("uses --config as the user's file before everything, still with the project merged over it", () => {
    const w = world();
    w.cwdFile();
    w.homeFile();
    const envFile = w.envFile();
    const file = w.flagFile();
    const loaded = loadConfig({ configPath: file, cwd: w.cwd, env: { ...w.env, AGENTGOV_CONFIG: envFile } });
    expect(loaded.layers?.map((layer) => [layer.role, layer.file, layer.source])).to.deep.equal([
      ['user', file, 'flag'],
      ['project', join(w.cwd, 'agentgov.yaml'), 'cwd'],
    ]);
    // log_level is not a safety setting: the project's value is taken, and the origin says so.
    expect(loaded.config.log_level).to.equal('ERROR');
    expect(loaded.origins?.['log_level']).to.deep.equal({ from: 'project', file: join(w.cwd, 'agentgov.yaml') });
  });

  it("keeps the user's file as the floor: a project value that loosens it is ignored, naming key and file", () => {
    const w = world();
    const home = join(w.env['AGENTGOV_HOME']!, 'config.yaml');
    writeFileSync(
      home,
      'gate:\n  on_unavailable: deny\n  timeout_ms: 2000\nrisk:\n  rules: [./org.yaml]\nplugins: [./policy.mjs]\n',
    );
    writeFileSync(
      join(w.cwd, 'agentgov.yaml'),
      'gate:\n  on_unavailable: ask\n  timeout_ms: 9000\nrisk:\n  rules: [./mine.yaml]\nplugins: [./mine.mjs, {plugin: ../.agentgov/policy.mjs}]\ngovernance:\n  db: /tmp/elsewhere.db\nbundled_plugins: none\n',
    );
    const loaded = loadConfig({ cwd: w.cwd, env: w.env });
    expect(loaded.config.gate).to.deep.equal({ on_unavailable: 'deny', timeout_ms: 2000, deadline_ms: 30000 });
    expect(loaded.config.risk.rules).to.deep.equal([join(w.env['AGENTGOV_HOME']!, 'org.yaml'), './mine.yaml']);
    expect(loaded.config.plugins).to.deep.equal([
      join(w.env['AGENTGOV_HOME']!, 'policy.mjs'),
      './mine.mjs',
      { plugin: '../.agentgov/policy.mjs' },
    ]);
    expect(loaded.config.governance.db).to.equal(null);
    expect(loaded.projectAdded).to.deep.equal({
      plugins: ['./mine.mjs', { plugin: '../.agentgov/policy.mjs' }],
      rules: ['./mine.yaml'],
    });
    const ignored = (loaded.ignored ?? []).join('\n');
    for (const key of ['gate.on_unavailable', 'gate.timeout_ms', 'governance.db'])
      expect(ignored).to.contain(`ignored ${key}:`);
    expect(ignored).to.contain(join(w.cwd, 'agentgov.yaml'));
    expect(loaded.origins?.['gate.on_unavailable']).to.deep.equal({ from: 'user', file: home });
    expect(loaded.origins?.['server.repo']).to.deep.equal({ from: 'default', file: null });
  });

  it('a project may not stop the bundled plugins the floor loads; its own plugins keep them loading', () => {
    const w = world();
    writeFileSync(join(w.cwd, 'agentgov.yaml'), 'plugins: [./mine.mjs]\n');
    expect(loadConfig({ cwd: w.cwd, env: w.env }).config.bundled_plugins).to.equal('all');
    writeFileSync(join(w.cwd, 'agentgov.yaml'), 'bundled_plugins: none\n');
    const loaded = loadConfig({ cwd: w.cwd, env: w.env });
    expect(loaded.config.bundled_plugins).to.equal('auto');
    expect(loaded.ignored?.join(' ')).to.contain('ignored bundled_plugins: "none"');
  });

  it('a project may tighten: on_unavailable ask → deny, a shorter timeout, the Score API off', () => {
    const w = world();
    writeFileSync(
      join(w.cwd, 'agentgov.yaml'),
      'gate:\n  on_unavailable: deny\n  timeout_ms: 500\nscore:\n  enabled: false\n',
    );
    const loaded = loadConfig({ cwd: w.cwd, env: w.env });
    expect(loaded.config.gate).to.deep.equal({ on_unavailable: 'deny', timeout_ms: 500, deadline_ms: 30000 });
    expect(loaded.config.score.enabled).to.equal(false);
    expect(loaded.ignored).to.deep.equal([]);
  });

  it('an invalid user file is an error even when a project file exists', () => {
    const w = world();
    writeFileSync(join(w.env['AGENTGOV_HOME']!, 'config.yaml'), 'gate: [\n');
    w.cwdFile();
    expect(() => loadConfig({ cwd: w.cwd, env: w.env })).to.throw(
      AgentgovError,
      join(w.env['AGENTGOV_HOME']!, 'config.yaml'),
    );
  });

  it('merges the chosen file over the defaults, section by section', () => {
    const w = world();
    writeFileSync(
      join(w.cwd, 'agentgov.yaml'),
      'server:\n  index:\n    max_file_bytes: 2048\ngate:\n  on_unavailable: deny\n',
    );
    const { config } = loadConfig({ cwd: w.cwd, env: w.env });
    expect(config.server.index).to.deep.equal({ ...defaultConfig().server.index, max_file_bytes: 2048 });
    expect(config.server.dev_mode).to.equal(false);
    expect(config.gate).to.deep.equal({ on_unavailable: 'deny', timeout_ms: 3000, deadline_ms: 30000 });
  });

  it('treats an empty file as "no overrides"', () => {
    const w = world();
    writeFileSync(join(w.cwd, 'agentgov.yaml'), '# nothing yet\n');
    expect(loadConfig({ cwd: w.cwd, env: w.env }).config).to.deep.equal(defaultConfig());
  });

  it('fails with E_CONFIG_INVALID naming the source when --config points nowhere', () => {
    const w = world();
    expect(() => loadConfig({ configPath: 'missing.yaml', cwd: w.cwd, env: w.env }))
      .to.throw(AgentgovError, `config file ${join(w.cwd, 'missing.yaml')} (from --config) does not exist`)
      .with.property('code', 'E_CONFIG_INVALID');
  });

  it('fails with every issue located when the file is invalid', () => {
    const w = world();
    writeFileSync(join(w.cwd, 'agentgov.yaml'), 'gate:\n  on_unavailable: maybe\nscore:\n  listen: 7331\n');
    try {
      loadConfig({ cwd: w.cwd, env: w.env });
      expect.fail('should have thrown');
    } catch (error) {
      expect(error).to.be.instanceOf(AgentgovError);
      const issues = (error as AgentgovError).details['issues'] as { path: string; line: number; column: number }[];
      expect(issues.map((i) => [i.path, i.line, i.column])).to.deep.equal([
        ['gate.on_unavailable', 2, 19],
        ['score.listen', 4, 11],
      ]);
    }
  });

  it('keeps unknown top-level keys as warnings, not errors', () => {
    const w = world();
    writeFileSync(join(w.cwd, 'agentgov.yaml'), 'scor:\n  enabled: false\n');
    const loaded = loadConfig({ cwd: w.cwd, env: w.env });
    expect(loaded.warnings.map((i) => i.message)).to.deep.equal([
      "unknown top-level key 'scor' is ignored (did you mean 'score'?)",
    ]);
  });
});
