import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openRepositoryIndex, type RepositoryIndex } from '../../src/index/repository-index.js';
import { gitRepo, LANGUAGES, memoryLogger } from '../index/fixture-repos.js';
import { connectClient } from '../mcp/session-client.js';

/**
 * A TypeScript + Python repository with known structure: a three-file import cycle in src/a (whose
 * functions also call each other in a ring), a two-file cycle in src/b (ping/pong), one util per
 * area, an index joining both areas, a CLI, and a Python package with console script, __main__
 * module and main guard.
 */
export const SCOUT_REPO: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'fx', bin: { fx: './dist/cli.js' }, main: 'dist/index.js' }),
  'src/a/util.ts': 'export const A_UTIL = 1;\n',
  'src/a/one.ts':
    "import { two } from './two';\nimport { A_UTIL } from './util';\nexport function one(n: number): number {\n  return n > 0 ? two(n - 1) : A_UTIL;\n}\n",
  'src/a/two.ts':
    "import { three } from './three';\nimport { A_UTIL } from './util';\nexport function two(n: number): number {\n  return three(n) + A_UTIL;\n}\n",
  'src/a/three.ts':
    "import { one } from './one';\nimport { A_UTIL } from './util';\nexport function three(n: number): number {\n  return one(n) * A_UTIL;\n}\n",
  'src/b/butil.ts': 'export const B_UTIL = 2;\n',
  'src/b/x.ts':
    "import { pong } from './y';\nimport { B_UTIL } from './butil';\nexport function ping(n: number): number {\n  return n > 0 ? pong(n - 1) : B_UTIL;\n}\n",
  'src/b/y.ts':
    "import { ping } from './x';\nimport { B_UTIL } from './butil';\nexport function pong(n: number): number {\n  return ping(n) + B_UTIL;\n}\n",
  'src/index.ts':
    "import { one } from './a/one';\nimport { ping } from './b/x';\nexport function main(): number {\n  return one(1) + ping(1);\n}\n",
  'src/cli.ts': "import { main } from './index';\nmain();\n",
  'pyproject.toml': '[project]\nname = "fxpy"\n\n[project.scripts]\nfxpy = "pkg.tool:main"\n',
  'pkg/__init__.py': '',
  'pkg/__main__.py': 'from pkg.tool import main\n\nmain()\n',
  'pkg/tool.py': 'def main():\n    return 0\n\n\nif __name__ == "__main__":\n    main()\n',
};

export type ToolCaller = (name: string, args: Record<string, unknown>) => Promise<CallToolResult>;

/** A real index over a fixture repository (built before returning) behind a real MCP session. */
export async function serveFixture(
  files: Record<string, string>,
): Promise<{ root: string; index: RepositoryIndex; client: Client; call: ToolCaller; close(): Promise<void> }> {
  const root = gitRepo(files, 'agentgov-scout-');
  const index = await openRepositoryIndex({ root, languages: LANGUAGES, logger: memoryLogger().logger });
  await index.ready;
  const { client, close } = await connectClient({ repoRoot: root, index });
  const call: ToolCaller = async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  return {
    root,
    index,
    client,
    call,
    close: async () => {
      await close();
      await index.close();
    },
  };
}

export function structured<T>(result: CallToolResult): T {
  if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent as T;
}

export function errorCode(result: CallToolResult): string | undefined {
  return (result.structuredContent as { error?: { code: string } }).error?.code;
}
