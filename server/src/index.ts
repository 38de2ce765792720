/** @agentgov/server: the MCP tool server. */
export const SERVER_PACKAGE = '@agentgov/server';
export { runServe, resolveRepoRoot, type ServeOptions } from './mcp/start.js';
export {
  applyHeapGrowth,
  QUIET_COLLECT_MS,
  releaseFreedMemory,
  setMemoryTarget,
  type HeapGrowthSource,
} from './memory.js';
export { createServeLogger, serveLogFile } from './mcp/logging.js';
export { ToolServer, type ToolServerOptions } from './mcp/tool-server.js';
export { serveHttp, parseHttpAddress } from './mcp/http.js';
export { resolveRepoPath, type RepoPath } from './paths/repo-path.js';
export { TOOLS, listedTools, defineTool, TOOL_GROUPS } from './tools/index.js';
export type { AnyToolDefinition, SessionState, ToolContext, ToolDefinition, ToolGroup } from './tools/index.js';
export * from './index/repository-index.js';
export * from './index/types.js';
export { identifierTerms, pathTerms } from './index/search-terms.js';
export type { FileFacts } from './index/extract-file.js';
export type { IndexDatabase } from './index/store/index-store.js';
export * as indexSchema from './index/store/schema.js';
export * from './graph/graph-algorithms.js';
export * from './test-impact/index.js';
