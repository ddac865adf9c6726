/** One changed stretch: `[from, to)` of the first text became `[newFrom, newTo)` of the last. */
export interface ChangedSpan {
  from: number;
  to: number;
  newFrom: number;
  newTo: number;
}

/** Past this many spans they are merged into one (a replace_all over a whole file). */
const MAX_SPANS = 500;

/**
 * Where a text changed after several replacements applied one after another (a multi-edit), in
 * both the first text's offsets and the last one's, so one diff can show every change with only
 * its own context. Outside the spans the two texts are equal.
 */
export class ChangedSpans {
  /** Sorted, apart from each other (touching spans are merged). */
  private spans: ChangedSpan[] = [];

  /** `[at, end)` of the current text was replaced by `length` characters. Call in descending `at` order within one step. */
  replaced(at: number, end: number, length: number): void {
    const shift = length - (end - at);
    let first = 0;
    while (first < this.spans.length && this.spans[first]!.newTo < at) first++;
    let last = first;
    while (last < this.spans.length && this.spans[last]!.newFrom <= end) last++;
    // Offsets in the first text: before `at` nothing in between changed, so the distance is that of the span before.
    const before = first > 0 ? this.spans[first - 1]! : undefined;
    const delta = before ? before.newTo - before.to : 0;
    const touching = this.spans.slice(first, last);
    const head = touching[0];
    const tail = touching[touching.length - 1];
    const from = head && head.newFrom <= at ? head.from : at - delta;
    const newFrom = head ? Math.min(head.newFrom, at) : at;
    const tailDelta = tail ? tail.newTo - tail.to : delta;
    const to = tail && tail.newTo >= end ? tail.to : end - tailDelta;
    const newTo = Math.max(end, tail?.newTo ?? end) + shift;
    const merged: ChangedSpan = { from, to, newFrom, newTo };
    for (let i = last; i < this.spans.length; i++) {
      const span = this.spans[i]!;
      this.spans[i] = { ...span, newFrom: span.newFrom + shift, newTo: span.newTo + shift };
    }
    this.spans.splice(first, last - first, merged);
    if (this.spans.length > MAX_SPANS) {
      const a = this.spans[0]!;
      const z = this.spans[this.spans.length - 1]!;
      this.spans = [{ from: a.from, to: z.to, newFrom: a.newFrom, newTo: z.newTo }];
    }
  }

  get list(): readonly ChangedSpan[] {
    return this.spans;
  }
}
