import { SingleBar } from 'cli-progress';

/** A one-line progress bar on a TTY (cli-progress, redrawn in place); does nothing elsewhere. */
export interface Progress {
  tick(label: string): void;
  done(): void;
}

export function createProgress(
  stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number },
  total: number,
  minTotal = 2,
): Progress {
  if (stream.isTTY !== true || total < minTotal) return { tick: () => undefined, done: () => undefined };
  const bar = new SingleBar({
    stream,
    format: '[{bar}] {value}/{total} {label}',
    barsize: 30,
    barCompleteChar: '#',
    barIncompleteChar: '.',
    hideCursor: false,
    clearOnComplete: true,
    linewrap: true, // cli-progress then cuts each frame at the terminal's width
    // Every tick is drawn (a replay of few large files ticks rarely), and the bar is stopped by done().
    fps: 10,
    forceRedraw: true,
    noTTYOutput: false,
  });
  bar.start(total, 0, { label: '' });
  return {
    tick(label) {
      bar.increment(1, { label });
    },
    done() {
      bar.stop();
    },
  };
}
