import { expect } from 'chai';
import { defaultConfig, validateConfigText, validateConfigValue, type ConfigIssue } from '../../src/index.js';

const check = (text: string): Pick<ConfigIssue, 'severity' | 'path' | 'message' | 'line' | 'column'>[] =>
  validateConfigText(text, 'agentgov.yaml').issues.map(({ severity, path, message, line, column }) => ({
    severity,
    path,
    message,
    line,
    column,
  }));

describe('config validation', () => {
  it('accepts the default configuration', () => {
    expect(validateConfigValue(defaultConfig())).to.deep.equal([]);
  });

  it('reports malformed YAML with line and column', () => {
    const [issue, ...rest] = check('server:\n  repo: [unclosed\n');
    expect(rest).to.deep.equal([]);
    expect(issue).to.include({ severity: 'error', path: '(yaml)', line: 3 });
    expect(issue?.message).to.match(/flow sequence|end/i);
  });

  it('reports a wrong type at a nested key with its key path and position', () => {
    expect(check('server:\n  index:\n    max_file_bytes: lots\n')).to.deep.equal([
      { severity: 'error', path: 'server.index.max_file_bytes', message: 'must be integer', line: 3, column: 21 },
    ]);
  });

  it('reports an enum violation with the allowed values', () => {
    expect(check('log_level: LOUD\n')).to.deep.equal([
      {
        severity: 'error',
        path: 'log_level',
        message: 'must be one of "DEBUG", "INFO", "WARNING", "ERROR"',
        line: 1,
        column: 12,
      },
    ]);
  });

  it('warns about an unknown top-level key and names the nearest valid one', () => {
    expect(check('plugin:\n  - ./x\n')).to.deep.equal([
      {
        severity: 'warning',
        path: 'plugin',
        message: "unknown top-level key 'plugin' is ignored (did you mean 'plugins'?)",
        line: 1,
        column: 1,
      },
    ]);
  });

  it('rejects an unknown key inside a section, pointing at the key', () => {
    const [issue] = check('gate:\n  on_unavailible: deny\n');
    expect(issue).to.include({ severity: 'error', path: 'gate.on_unavailible', line: 2, column: 3 });
    expect(issue?.message).to.equal(
      "unknown key 'on_unavailible' (did you mean 'on_unavailable'? allowed: on_unavailable, timeout_ms, deadline_ms)",
    );
  });

  it('checks plugin entries: a string or { plugin, options }', () => {
    expect(
      check('plugins:\n  - ./ok\n  - plugin: ./also-ok\n    options: { a: 1 }\n  - { options: {} }\n  - 42\n'),
    ).to.deep.equal([
      { severity: 'error', path: 'plugins[2]', message: "must have required property 'plugin'", line: 5, column: 5 },
      { severity: 'error', path: 'plugins[3]', message: 'must be string', line: 6, column: 5 },
    ]);
  });

  it('rejects a document that is not a mapping', () => {
    expect(check('- just\n- a list\n')).to.deep.equal([
      {
        severity: 'error',
        path: '(root)',
        message: 'the configuration must be a mapping of keys to values',
        line: 1,
        column: 1,
      },
    ]);
  });

  it('reports every problem, not just the first', () => {
    expect(check('log_level: 3\ngate:\n  timeout_ms: -1\nscore:\n  enabled: "yes"\n').map((i) => i.path)).to.deep.equal(
      ['log_level', 'gate.timeout_ms', 'score.enabled'],
    );
  });

  it('rejects a glob it cannot compile, naming the key and the pattern', () => {
    const issues = check('server:\n  index:\n    exclude: ["vendor/**", "src/[ab", "!{a,b"]\n');
    expect(issues.map((i) => [i.severity, i.path, i.line])).to.deep.equal([
      ['error', 'server.index.exclude[1]', 3],
      ['error', 'server.index.exclude[2]', 3],
    ]);
    expect(issues[0]!.message).to.match(/^invalid glob "src\/\[ab": Missing closing: "\]".*docs\/config\.md, "Globs"/);
    expect(issues[1]!.message).to.contain('invalid glob "!{a,b"');
    expect(check('server:\n  index:\n    exclude: ["{a,b}/**", "[ab]*", "!keep/**"]\n')).to.deep.equal([]);
  });
});
