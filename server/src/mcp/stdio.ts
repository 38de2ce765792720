import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ToolServer } from './tool-server.js';

/**
 * Serves one MCP session over stdin/stdout (stdout carries only protocol messages; logs go to
 * stderr). Resolves when the client disconnects: stdin ends, or stdout breaks (EPIPE when the
 * client went away mid-answer), which is a normal end of the session, never a crash.
 */
export async function serveStdio(toolServer: ToolServer, stdin: NodeJS.ReadableStream = process.stdin, stdout: NodeJS.WritableStream = process.stdout): Promise<void> {
  const server = toolServer.createSession();
  const transport = new StdioServerTransport(stdin as never, stdout as never);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    stdin.once('end', () => resolve());
    stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') resolve();
      else throw error;
    });
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
