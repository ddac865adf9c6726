/** A set that remembers only its most recent `capacity` members (for aborted scope ids). */
export class RecentSet<T> {
  private readonly items = new Set<T>();

  constructor(private readonly capacity: number) {}

  add(item: T): void {
    this.items.delete(item);
    this.items.add(item);
    if (this.items.size > this.capacity) this.items.delete(this.items.values().next().value as T);
  }

  has(item: T): boolean {
    return this.items.has(item);
  }
}
