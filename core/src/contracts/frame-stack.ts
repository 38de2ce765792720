/** One ancestor of the node a syntax-tree walker is at: its type, the field it fills in its parent, its start. */
export interface Frame {
  type: string;
  field: string | null;
  start: number;
}

/**
 * The ancestors of a cursor-driven walk, for language packs' walkers: one frame object per depth,
 * reused across the walk rather than allocated per node (a walk visits millions of nodes).
 */
export class FrameStack {
  readonly #frames: Frame[] = [];
  #depth = 0;

  push(type: string, field: string | null, start: number): void {
    const frame = this.#frames[this.#depth];
    if (frame) {
      frame.type = type;
      frame.field = field;
      frame.start = start;
    } else this.#frames.push({ type, field, start });
    this.#depth++;
  }

  pop(): void {
    this.#depth--;
  }

  /** The `up`-th ancestor: 1 is the parent. The object is reused once the walk leaves it. */
  up(up: number): Frame | undefined {
    return up <= this.#depth ? this.#frames[this.#depth - up] : undefined;
  }

  /** Whether any live ancestor has this type. */
  has(type: string): boolean {
    for (let i = 0; i < this.#depth; i++) if (this.#frames[i]!.type === type) return true;
    return false;
  }
}
