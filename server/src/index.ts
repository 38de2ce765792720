/** @agentgov/server: the MCP tool server. The index, graphs and tools land here (issue 3). */
export const SERVER_PACKAGE = '@agentgov/server';
