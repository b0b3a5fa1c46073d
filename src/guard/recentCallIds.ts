/**
 * The call IDs one trigger saw most recently, oldest dropped beyond `limit`.
 * `checkAndAdd` is synchronous: two deliveries handled by one process can never both miss.
 */
export class RecentCallIds {
	private readonly ids = new Set<string>();

	constructor(private readonly limit: number) {}

	/** Remembers the ID (as the newest) and tells whether it was already there. */
	checkAndAdd(callId: string): boolean {
		const seen = this.ids.delete(callId);
		this.ids.add(callId);
		this.dropOldest();
		return seen;
	}

	get size(): number {
		return this.ids.size;
	}

	private dropOldest(): void {
		for (const oldest of this.ids) {
			if (this.ids.size <= this.limit) return;
			this.ids.delete(oldest);
		}
	}
}

/**
 * One `RecentCallIds` per key (a workflow's trigger node), for at most `maxKeys` keys: the
 * least recently used key is forgotten first, so the memory stays bounded in a long-lived process.
 */
export class RecentCallIdsByKey {
	private readonly memories = new Map<string, RecentCallIds>();

	constructor(
		private readonly maxKeys: number,
		private readonly idsPerKey: number,
	) {}

	/** The memory of `key`, created empty when new. */
	forKey(key: string): RecentCallIds {
		const existing = this.memories.get(key);
		if (existing) {
			this.memories.delete(key);
			this.memories.set(key, existing);
			return existing;
		}
		const memory = new RecentCallIds(this.idsPerKey);
		this.memories.set(key, memory);
		for (const oldest of this.memories.keys()) {
			if (this.memories.size <= this.maxKeys) break;
			this.memories.delete(oldest);
		}
		return memory;
	}
}
