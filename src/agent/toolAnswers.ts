/**
 * What a tool answers the AI agent's model when it sends nothing: plain English, in the words of
 * what the tool does (a tool that cancels calls never says it calls).
 */

/** '1 number', '3 numbers': every count an answer gives. */
export function countOf(value: number, noun: string): string {
	return `${value} ${value === 1 ? noun : `${noun}s`}`;
}

/**
 * A number the tool reached earlier in this execution: it reaches a number once. `done` is what
 * it did to the number: 'called', 'enrolled'.
 */
export function alreadyReachedText(done: string, masked: string, pairedWith: string): string {
	return `Not ${done}: this tool has already ${done} ${masked} with ${pairedWith} in this execution, and reaches a number once`;
}

/** Max Calls per Execution is used up. */
export function limitReachedText(done: string, maxCalls: number, setting: string): string {
	return `Not ${done}: this tool has ${done} ${countOf(maxCalls, 'number')} in this execution, its ${setting}; no more are ${done} in this conversation`;
}
