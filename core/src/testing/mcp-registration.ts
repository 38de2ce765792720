import { readFileSync, writeFileSync } from 'node:fs';
import type { McpRegistrar, McpServerEntry } from '../contracts/framework.js';
import { makeTempDir } from './temp-dir.js';

/** One scope's registration, read back from the file the registrar named. */
export interface ScopeRegistration {
  configFile: string;
  /** Whether the first run wrote the file, and whether the second, with the same server, did. */
  changed: boolean;
  changedAgain: boolean;
  /** `mcpServers.agentgov` as the file holds it after both runs. */
  entry: unknown;
}

export interface RegistrationTrial {
  /** The fresh project directory and home the runs used. */
  project: string;
  home: string;
  projectScope: ScopeRegistration;
  userScope: ScopeRegistration;
  /**
   * The project file replaced by text that does not parse and registered again: the error's code, and whether the
   * file was left as it was.
   */
  invalid: { code: string | undefined; untouched: boolean };
}

/**
 * What a registrar for an agent that reads JSON `mcpServers` does, for that plugin's own test to compare with what the
 * agent expects: registers `server` twice at scope `project` in a fresh project and twice at scope `user`, with
 * `envOf(home)` (a fresh home) as the environment both times, reads `mcpServers.agentgov` back from each file, then
 * registers once more over a project file that does not parse. The shared behaviour (other keys and servers kept, an
 * identical entry not rewritten) is `registerJsonMcpServer`'s, tested in core; a plugin states where and what.
 */
export async function tryRegistrar(
  registrar: McpRegistrar,
  server: McpServerEntry,
  envOf: (home: string) => NodeJS.ProcessEnv,
): Promise<RegistrationTrial> {
  const project = makeTempDir();
  const home = makeTempDir();
  const env = envOf(home);
  const twice = async (scope: string): Promise<ScopeRegistration> => {
    const first = await registrar.register(project, server, { scope, env });
    const second = await registrar.register(project, server, { scope, env });
    const settings = JSON.parse(readFileSync(first.configFile, 'utf8')) as { mcpServers?: Record<string, unknown> };
    return {
      configFile: first.configFile,
      changed: first.changed,
      changedAgain: second.changed || second.configFile !== first.configFile,
      entry: settings.mcpServers?.['agentgov'],
    };
  };
  const projectScope = await twice('project');
  const userScope = await twice('user');
  const broken = '{ "mcpServers": { ';
  writeFileSync(projectScope.configFile, broken);
  let code: string | undefined;
  try {
    await registrar.register(project, server, { scope: 'project', env });
  } catch (error) {
    code = (error as { code?: string }).code;
  }
  const untouched = readFileSync(projectScope.configFile, 'utf8') === broken;
  return { project, home, projectScope, userScope, invalid: { code, untouched } };
}
