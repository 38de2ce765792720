import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { registerJsonMcpServer } from '../../src/index.js';
import { makeTempDir } from '../../src/testing/index.js';

const ENTRY = { command: '/usr/bin/node', args: ['/opt/agentgov/bin/agentgov.js', 'serve'] };
const read = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

describe('registerJsonMcpServer: mcpServers.<name> of a JSON settings file', function () {
  it('creates the file and its directory when there is none', function () {
    const file = join(makeTempDir(), 'nested/dir/mcp.json');
    expect(registerJsonMcpServer(file, 'agentgov', ENTRY)).to.deep.equal({ changed: true });
    expect(read(file)).to.deep.equal({ mcpServers: { agentgov: ENTRY } });
  });

  it('keeps every other key and server; the same entry again writes nothing', function () {
    const file = join(makeTempDir(), 'settings.json');
    writeFileSync(file, JSON.stringify({ theme: 'dark', mcpServers: { docs: { command: 'docs-mcp', args: [] } } }));
    expect(registerJsonMcpServer(file, 'agentgov', ENTRY)).to.deep.equal({ changed: true });
    expect(read(file)).to.deep.equal({
      theme: 'dark',
      mcpServers: { docs: { command: 'docs-mcp', args: [] }, agentgov: ENTRY },
    });
    const text = readFileSync(file, 'utf8');
    const written = statSync(file).mtimeMs;
    expect(registerJsonMcpServer(file, 'agentgov', ENTRY)).to.deep.equal({ changed: false });
    expect(readFileSync(file, 'utf8')).to.equal(text);
    expect(statSync(file).mtimeMs).to.equal(written);
  });

  it("updates a different entry in place, keeping the keys of the user's own entry it does not set", function () {
    const file = join(makeTempDir(), 'mcp.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { agentgov: { command: 'old', args: [], timeout: 30 } } }));
    expect(registerJsonMcpServer(file, 'agentgov', ENTRY)).to.deep.equal({ changed: true });
    expect(read(file)).to.deep.equal({ mcpServers: { agentgov: { ...ENTRY, timeout: 30 } } });
  });

  it('keeps the mode of an existing file', function () {
    const file = join(makeTempDir(), 'settings.json');
    writeFileSync(file, '{}', { mode: 0o600 });
    registerJsonMcpServer(file, 'agentgov', ENTRY);
    expect(statSync(file).mode & 0o777).to.equal(0o600);
  });

  for (const [what, text] of [
    ['text that does not parse', '{ "mcpServers": { '],
    ['a top level that is not an object', '[1, 2]'],
    ['mcpServers that is not an object', '{"mcpServers": ["agentgov"]}'],
  ] as const) {
    it(`refuses ${what} with E_SETTINGS_INVALID and leaves the file as it was`, function () {
      const file = join(makeTempDir(), 'settings.json');
      writeFileSync(file, text);
      expect(() => registerJsonMcpServer(file, 'agentgov', ENTRY))
        .to.throw()
        .with.property('code', 'E_SETTINGS_INVALID');
      expect(readFileSync(file, 'utf8')).to.equal(text);
    });
  }
});
