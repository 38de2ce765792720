/** A one-line progress bar on a TTY (redrawn in place); does nothing elsewhere. */
export interface Progress {
  tick(label: string): void;
  done(): void;
}

const WIDTH = 30;

export function createProgress(
  stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number },
  total: number,
  minTotal = 2,
): Progress {
  if (stream.isTTY !== true || total < minTotal) return { tick: () => undefined, done: () => undefined };
  let current = 0;
  const columns = stream.columns ?? 80;
  return {
    tick(label) {
      current += 1;
      const filled = Math.round((current / total) * WIDTH);
      const line = `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${current}/${total} ${label}`;
      stream.write(`\r\x1b[2K${line.slice(0, columns - 1)}`);
    },
    done() {
      stream.write('\r\x1b[2K');
    },
  };
}
