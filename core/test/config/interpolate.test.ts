import { expect } from 'chai';
import { join } from 'node:path';
import { AgentgovError, createPluginHost, interpolateEnv, loadConfig, silentLogger } from '../../src/index.js';
import { makeTempDir, writeTree } from '../../src/testing/index.js';

describe('config/interpolate', () => {
  const env = { PGPASSWORD: 's3cr/et', HOST: 'db.internal' };
  const cases: { input: unknown; output: unknown }[] = [
    { input: 'postgres://u:${PGPASSWORD}@${HOST}:5432/x', output: 'postgres://u:s3cr/et@db.internal:5432/x' },
    { input: 'literal $${HOST} stays', output: 'literal ${HOST} stays' },
    { input: 'no references, $HOST is not one', output: 'no references, $HOST is not one' },
    {
      input: { a: ['${HOST}', 3, true, null], b: { c: '${HOST}' } },
      output: { a: ['db.internal', 3, true, null], b: { c: 'db.internal' } },
    },
  ];
  for (const { input, output } of cases) {
    it(`expands ${JSON.stringify(input)}`, () => {
      expect(interpolateEnv(input, env)).to.deep.equal({ value: output, issues: [] });
    });
  }

  it('reports an unset variable and a malformed reference by key path, never expanding them to nothing', () => {
    const { value, issues } = interpolateEnv({ url: 'x${MISSING}y', list: ['${not a name}'] }, env, ['options']);
    expect(value).to.deep.equal({ url: 'x${MISSING}y', list: ['${not a name}'] });
    expect(issues).to.deep.equal([
      { path: 'options.url', message: 'environment variable MISSING is not set' },
      {
        path: 'options.list[0]',
        message: "'${not a name}' is not an environment variable reference (write $${ for a literal ${)",
      },
    ]);
  });

  it('expands plugin options when the plugin loads, and keeps the reference in the loaded config', async () => {
    const dir = makeTempDir('agentgov-interp-');
    writeTree(dir, {
      'agentgov.yaml': "plugins:\n  - plugin: ./echo.mjs\n    options: { url: 'postgres://u:${PGPASSWORD}@h/db' }\n",
      'echo.mjs':
        "export default { name: 'echo', apply(hooks, context) { hooks.sinks.tap('echo', (r) => r.add({ name: context.options.url, write: async () => {} })); } };",
    });
    const loaded = loadConfig({ cwd: dir, env: { HOME: dir, AGENTGOV_HOME: join(dir, '.agentgov') } });
    const host = await createPluginHost({
      loaded,
      bundled: [],
      resolveFrom: [dir],
      host: 'cli',
      logger: silentLogger,
      env,
    });
    expect(host.registries.sinks.names()).to.deep.equal(['postgres://u:s3cr/et@h/db']);
    expect(JSON.stringify(loaded.config)).to.include('${PGPASSWORD}').and.not.include('s3cr/et');
    try {
      await createPluginHost({ loaded, bundled: [], resolveFrom: [dir], host: 'cli', logger: silentLogger, env: {} });
      expect.fail('an unset variable must stop start-up');
    } catch (error) {
      expect(error).to.be.instanceOf(AgentgovError);
      expect((error as AgentgovError).code).to.equal('E_PLUGIN_LOAD');
      expect((error as Error).message).to.include('options.url: environment variable PGPASSWORD is not set');
    }
  });
});
