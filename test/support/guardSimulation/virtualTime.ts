// Virtual time for the guard's simulation: every wait is an event on one timeline, run in time
// order (ties in the order they were scheduled), with the promises it resolves settled before the
// next event. A seeded schedule therefore replays exactly (with test/src/schedule/scheduleOracle.ts's seededRandom).
// The engine tests' clock (test/engine/virtualClock.ts) is the same timeline, run by itself.
import { nextTurn } from './host.mjs';

interface TimedEvent {
	at: number;
	order: number;
	run: () => void;
	cancelled?: boolean;
}

export class VirtualTime {
	private order = 0;
	private readonly events: TimedEvent[] = [];
	/** Whether events run as they come due, without run() (runsByItself). */
	private driving = false;

	/**
	 * `runsByItself`: each event runs once nothing else can move (no run() needed), for code that
	 * does real work between its waits, as n8n's engine does.
	 */
	constructor(
		public now = 0,
		private readonly runsByItself = false,
	) {}

	/** Runs `run` after `ms` of virtual time. */
	after(ms: number, run: () => void): TimedEvent {
		const event = { at: this.now + Math.max(0, ms), order: this.order++, run };
		// a sorted insert from the end: most events land near the end
		let index = this.events.length;
		while (index > 0 && earlier(event, this.events[index - 1])) index--;
		this.events.splice(index, 0, event);
		if (this.runsByItself && !this.driving) void this.drive();
		return event;
	}

	/** Resolves after `ms` of virtual time; rejects, and leaves no event, once `signal` aborts. */
	async sleep(ms: number, signal?: AbortSignal): Promise<void> {
		signal?.throwIfAborted();
		await new Promise<void>((resolve, reject) => {
			const event = this.after(ms, resolve);
			signal?.addEventListener(
				'abort',
				() => {
					event.cancelled = true;
					reject(signal.reason as Error);
				},
				{ once: true },
			);
		});
	}

	/** Runs events until none is left or the time passes `until`; settles promises between events. */
	async run(until: number): Promise<void> {
		await this.runEvents(until);
		this.now = Math.max(this.now, until);
	}

	private async drive(): Promise<void> {
		this.driving = true;
		try {
			await this.runEvents(Infinity);
		} finally {
			this.driving = false;
		}
	}

	private async runEvents(until: number): Promise<void> {
		await settle();
		while (this.events.length > 0 && this.events[0].at <= until) {
			const event = this.events.shift()!;
			if (event.cancelled) continue;
			this.now = event.at;
			event.run();
			await settle();
		}
	}
}

function earlier(a: TimedEvent, b: TimedEvent): boolean {
	return a.at < b.at || (a.at === b.at && a.order < b.order);
}

/** Lets every promise that can move on do so (microtasks run before the next macrotask). */
async function settle(): Promise<void> {
	await nextTurn();
}
