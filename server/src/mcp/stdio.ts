import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { MAX_STDIO_MESSAGE_BYTES, StdioMessageGuard } from './stdio-message-guard.js';
import type { ToolServer } from './tool-server.js';

/**
 * Serves one MCP session over stdin/stdout (stdout carries only protocol messages; logs go to
 * stderr). Resolves when the client disconnects: stdin ends, or stdout breaks (EPIPE when the
 * client went away mid-answer), which is a normal end of the session, never a crash. A message
 * over `MAX_STDIO_MESSAGE_BYTES` is answered with a JSON-RPC error (-32600) and skipped.
 */
export async function serveStdio(
  toolServer: ToolServer,
  stdin: NodeJS.ReadableStream = process.stdin,
  stdout: NodeJS.WritableStream = process.stdout,
): Promise<void> {
  const server = toolServer.createSession();
  const guard = new StdioMessageGuard(MAX_STDIO_MESSAGE_BYTES, (bytes, id) => {
    toolServer.options.logger.warn('stdio message over the size limit skipped', {
      bytes,
      limit: MAX_STDIO_MESSAGE_BYTES,
      id,
    });
    const message =
      `message of ${bytes} bytes exceeds the ` +
      `${MAX_STDIO_MESSAGE_BYTES}-byte limit of agentgov serve over stdio; it was ` +
      `skipped`;
    stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32600, message } })}\n`);
  });
  stdin.pipe(guard);
  const transport = new StdioServerTransport(guard as never, stdout as never, {
    maxBufferSize: MAX_STDIO_MESSAGE_BYTES + 1,
  });
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
  // The transport pauses the guard, not stdin: let go of stdin too, or its flowing stream keeps the process alive.
  stdin.unpipe(guard);
  if (stdin.listenerCount('data') === 0) stdin.pause();
}
